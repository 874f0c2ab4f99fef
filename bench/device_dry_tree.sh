# Sourced by the dry runs of the device scripts (device_check_dry_run.sh, gpu_peers_dry_run.sh).
# dry_tree ARGS...: runs bench/prepare_device_carry.sh ARGS, then copies the tracked tree and
# the carried third_party/ into $work/tree, a fresh folder with no ../shared beside it, as a
# device machine sees them; $work/out is empty, and $work is removed on exit.
dry_tree() {
  bash bench/prepare_device_carry.sh "$@" > /dev/null
  work=$(mktemp -d "${TMPDIR:-/tmp}/perftkit-dry-run.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  mkdir -p "$work/tree" "$work/out"
  git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$work/tree"
  cp -r third_party "$work/tree/"
}
