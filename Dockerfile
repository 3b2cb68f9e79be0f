# syntax=docker/dockerfile:1
#
# Lucid in two stages: a Swift toolchain builds one self-contained binary (the Swift
# runtime and Foundation linked in statically), and a slim Debian 12 image runs it as an
# unprivileged user with the journal database in a volume.
#
#   docker build -t lucid .
#   docker run -p 8080:8080 -v lucid-data:/data lucid
#   docker run -p 8080:8080 -e LUCID_DATABASE='postgresql://lucid@db/lucid' lucid   (many instances)

# ---------------------------------------------------------------- build
# The toolchain the code is developed and tested with (Swift 6.3.1), on Debian 12 like the
# runtime stage, so the C libraries it links against are the very ones installed below
# (libmicrohttpd is not among them: it is built from Sources/CMicroHTTPD, into the binary).
FROM swift:6.3.1-bookworm AS build

# DL3008 (pin apt versions) is ignored on purpose: Debian security updates replace package
# versions in place, so a pin would break the build as soon as a fix is published.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        libpq-dev \
        libsodium-dev \
        libsqlite3-dev \
        pkg-config \
        zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The whole package: SwiftPM checks every target's folder (Tests/ included) when it loads
# Package.swift, and migrations/ and openapi.yaml are embedded into the binary.
COPY . .
RUN swift build -c release --product lucid --static-swift-stdlib \
    && install -D -m 0755 "$(swift build -c release --show-bin-path)/lucid" /out/lucid

# ---------------------------------------------------------------- run
FROM debian:bookworm-slim

# Only the shared libraries the binary loads (libstdc++6 and libgcc-s1 are already in the
# base image), certificates, and curl for the health check. DL3008 as above.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends \
        ca-certificates \
        curl \
        libpq5 \
        libsodium23 \
        libsqlite3-0 \
        zlib1g \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --user-group --uid 10001 --no-create-home \
        --home-dir /nonexistent --shell /usr/sbin/nologin lucid \
    && install -d -o lucid -g lucid -m 0750 /data

COPY --from=build /out/lucid /usr/local/bin/lucid

# /data is created and owned by lucid before VOLUME, so a new named volume starts with that
# owner. A bind mount keeps the host folder's owner: make it writable by uid 10001.
ENV LUCID_HOST=0.0.0.0 \
    LUCID_PORT=8080 \
    LUCID_DATABASE=/data/lucid.sqlite
VOLUME /data
EXPOSE 8080

# Through a shell so that a changed LUCID_PORT is followed, and so that every failure of curl
# becomes exit status 1, the one Docker defines as "unhealthy".
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/bin/sh", "-c", "curl -fsS \"http://127.0.0.1:${LUCID_PORT:-8080}/healthz\" || exit 1"]

# The user lucid, by number, so a runtime can check that it is not root without /etc/passwd.
USER 10001:10001
ENTRYPOINT ["/usr/local/bin/lucid"]
CMD ["serve"]
