# Sourced by the tests that run a receiver and a sender as two processes on
# 127.0.0.1 (framediff-codec.sh, clients/pipelines.sh, clients/ffplay.sh).
#
#   listen_start PROTO TRIES FN
#
# Picks a port that nothing uses (as /proc/net shows them, in hex) and calls
# FN PORT, which must start the receiver on it in the background and set
# `listener` to its pid; then waits up to 10 s for the receiver to listen
# (tcp) or to be bound (udp). If another process took the port meanwhile,
# or the receiver ended, it stops that receiver and tries the next port, up
# to TRIES times. Sets `port` and returns 0 once the receiver listens; else
# returns 1 with the reason in `listen_error`. The variables it uses for
# itself start with `listen_`.

port_in_use() {
    grep -q "$(printf ':%04X ' "$1")" /proc/net/tcp /proc/net/udp /proc/net/tcp6 /proc/net/udp6 2>/dev/null
}

# port_listening PROTO PORT
port_listening() {
    listen_addr=$(printf '0100007F:%04X' "$2")
    if [ "$1" = tcp ]; then
        awk -v a="$listen_addr" '$2 == a && $4 == "0A" { f = 1 } END { exit !f }' /proc/net/tcp
    else
        awk -v a="$listen_addr" '$2 == a { f = 1 } END { exit !f }' /proc/net/udp
    fi
}

listen_start() {
    listen_proto=$1 listen_tries=$2 listen_fn=$3
    if ! [ -r /proc/net/tcp ] || ! [ -r /proc/net/udp ]; then
        listen_error="/proc/net is needed to pick a free port"
        return 1
    fi
    port=$(( 20000 + ($$ * 37 + $(date +%s) % 1000 * 101) % 30000 ))
    while [ "$listen_tries" -gt 0 ]; do
        listen_tries=$((listen_tries - 1))
        port=$(( (port - 20000 + 7919) % 30000 + 20000 ))
        port_in_use $port && continue
        "$listen_fn" $port
        listen_w=0
        while [ $listen_w -lt 100 ]; do
            port_listening "$listen_proto" $port && return 0
            kill -0 "$listener" 2>/dev/null || break
            sleep 0.1
            listen_w=$((listen_w + 1))
        done
        kill "$listener" 2>/dev/null
        wait "$listener" 2>/dev/null
    done
    listen_error="no free port for the receiver"
    return 1
}
