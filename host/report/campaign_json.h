/* sdpa-report campaign-json: campaign.json (kind "gpu-campaign", data/SCHEMA.md) from what
 * tools/campaign/campaign.sh recorded while it ran, written once through the library's atomic,
 * never-overwriting writer. */
#ifndef CAMPAIGN_JSON_H
#define CAMPAIGN_JSON_H

/* argv[1] is "campaign-json". Exit 0; 1 when a file cannot be read or written; 2 on usage or a
 * malformed record (the message names the option, or the file and line). */
int campaign_json_main(int argc, char **argv);

#endif
