# Sourced by the bench shell scripts that write a text result: the line naming the CPU and
# its core count, the same in every such file.
#   usage: source "$root/bench/machine_line.sh"; echo "$(cpu_and_cores), ..."
cpu_and_cores() {
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
}
