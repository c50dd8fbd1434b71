# Kernel switches that may be set from the command line for a custom variant
# (make build USE_CP_ASYNC=1 USE_WMMA_PV=1 ...), as in the original study. An unknown USE_* switch
# is an error: the original measured toggles that never reached the compiler (its USE_XOR_SWIZZLE, and Stage-5 toggles read at import time).
# The names come from the one switch list, kernels/switches.h (a line "X(NAME, ..." per switch).
_switch_sed := s/^ *X\(([A-Z0-9_]+),.*/USE_\1/p
SWITCH_NAMES := $(shell sed -nE '$(_switch_sed)' kernels/switches.h)
ifeq ($(SWITCH_NAMES),)
$(error mk/switches.mk: no switch found in kernels/switches.h)
endif

_cmdline_switches := $(foreach v,$(.VARIABLES),$(if $(filter command line,$(origin $(v))),$(filter USE_%,$(v))))
_unknown_switches := $(filter-out $(SWITCH_NAMES),$(_cmdline_switches))
ifneq ($(_unknown_switches),)
$(error unknown kernel switch(es): $(_unknown_switches); known switches: $(SWITCH_NAMES))
endif
$(foreach v,$(filter $(SWITCH_NAMES),$(_cmdline_switches)),\
  $(if $(filter 0 1,$($(v))),,$(error switch $(v)=$($(v)): must be 0 or 1)))

# A custom variant exists when at least one switch was given; unset switches default to 0.
CUSTOM_SWITCHES := $(filter $(SWITCH_NAMES),$(_cmdline_switches))

# $(GEN)/sdpa_custom.h carries them to every file that includes kernels/variants.def (kernels and
# host); rewritten only when the switches change, so exactly the dependent objects rebuild.
SDPA_CUSTOM_H := $(GEN)/sdpa_custom.h
$(SDPA_CUSTOM_H): FORCE
	$(Q){ echo "/* Generated from make's command line (mk/switches.mk): do not edit. */"; \
	  echo "#ifndef SDPA_CUSTOM_H"; echo "#define SDPA_CUSTOM_H"; \
	  $(if $(CUSTOM_SWITCHES),echo "#define SDPA_CUSTOM_VARIANT 1";) \
	  $(foreach v,$(SWITCH_NAMES),echo "#define $(v) $(or $($(v)),0)";) echo "#endif"; } | tools/write-if-changed.sh $@
