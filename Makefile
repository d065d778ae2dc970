# Build iap in release mode and put it on the PATH.
#
#   make install                        # into /usr/local/bin (may need sudo)
#   make install PREFIX="$HOME/.local"  # into ~/.local/bin, no sudo
#   make uninstall PREFIX="$HOME/.local"
#
# DESTDIR is honoured for packagers: make install DESTDIR=/tmp/stage PREFIX=/usr

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
SWIFT ?= swift

.PHONY: all build install uninstall

all: build

build:
	$(SWIFT) build -c release --product iap

install: build
	install -d "$(DESTDIR)$(BINDIR)"
	install -m 755 "$$($(SWIFT) build -c release --show-bin-path)/iap" "$(DESTDIR)$(BINDIR)/iap"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/iap"
