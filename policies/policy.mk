# policy.mk - build an out-of-tree slab policy module for slabsim.
#
#   make -f policy.mk SRC=mine.c [OUT=mine.so] [SLABSIM_INCLUDE=DIR]
#
# In a source tree `make policy SRC=mine.c` runs this with the tree's API
# headers; after `make install` it is $(PREFIX)/share/slabsim/policy.mk and
# the headers are $(PREFIX)/include/slabsim. Then: slabsim run -p ./mine.so ...
# The headers: beside this file's install (PREFIX/share/slabsim/policy.mk ->
# PREFIX/include/slabsim), whatever PREFIX was.
SLABSIM_INCLUDE ?= $(abspath $(dir $(lastword $(MAKEFILE_LIST)))../../include/slabsim)
ifeq ($(origin CC),default)
CC      := gcc
endif
OUT     ?= $(basename $(SRC)).so
POLICY_CFLAGS ?= -O2 -g
POLICY_WARN   := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter

.PHONY: module
module: $(OUT)

$(OUT): $(SRC) $(wildcard $(SLABSIM_INCLUDE)/*.h $(SLABSIM_INCLUDE)/*/*.h)
	@[ -n "$(SRC)" ] || { echo "usage: make -f policy.mk SRC=mine.c [OUT=mine.so]"; exit 2; }
	$(CC) -std=gnu11 $(POLICY_WARN) $(POLICY_CFLAGS) -fPIC -shared -D_GNU_SOURCE \
	  -I$(SLABSIM_INCLUDE) -o $@ $(SRC)
