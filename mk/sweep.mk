# The campaign as Slurm job arrays across device kinds and nodes (tools/sweep/README.md, "Many GPUs: Slurm
# sweeps"; the sweep file: experiments/sweeps/README.md). tools/sweep/sweep.sh writes and submits;
# Slurm schedules.

## sweep: build the bundle, write one job array per device kind and a collector, submit them (SWEEP=file; DRY_RUN=1 prints only)
sweep: $(BUNDLE_TGZ)
	$(Q)test -n "$(SWEEP)" || { echo "sweep: give the sweep file, e.g. make sweep SWEEP=experiments/sweeps/emulated.sweep" >&2; exit 2; }
	$(Q)tools/sweep/sweep.sh submit "$(SWEEP)" $(BUNDLE_TGZ) $(if $(filter-out 0,$(DRY_RUN)),--dry-run)
## sweep-status: per device kind and part, complete or missing, the Slurm state and a failed task's last log lines (SWEEP=file)
sweep-status:
	$(Q)test -n "$(SWEEP)" || { echo "sweep-status: give the sweep file, e.g. make sweep-status SWEEP=experiments/sweeps/emulated.sweep" >&2; exit 2; }
	$(Q)tools/sweep/sweep.sh status "$(SWEEP)"
.PHONY: sweep sweep-status

# On a one-node Slurm the suite starts (~4 minutes, mostly waiting): the long tier's (make test-long).
TEST_LONG_DEPS   += $(BUNDLE_TGZ)
TEST_LONG_SUITES += "bash tests/sweep/sweep.sh $(BUNDLE_TGZ)"
