# Sourced by start-local-slurm and stop-local-slurm: the pid of a daemon they started,
# trusted only when that process still is the daemon (a pid file outlives its process,
# and the pid may since belong to something else).
# daemon_pid DIR NAME: prints the pid and succeeds, or fails.
daemon_pid() {
  local pid_file="$1/run/$2.pid" pid comm
  [ -f "$pid_file" ] || return 1
  pid="$(cat "$pid_file")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  comm="$(cat "/proc/$pid/comm" 2>/dev/null)" || return 1
  [ "$comm" = "$2" ] || return 1
  echo "$pid"
}

# stop_daemons DIR: SIGTERM, up to 5 s, then SIGKILL, for each daemon of DIR; pid files go.
stop_daemons() {
  local daemon pid
  for daemon in slurmd slurmctld munged; do
    if pid="$(daemon_pid "$1" "$daemon")"; then
      kill "$pid" 2>/dev/null
      for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$1/run/$daemon.pid"
  done
}
