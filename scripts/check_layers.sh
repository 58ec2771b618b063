#!/usr/bin/env bash
# Checks the include rules between the project's parts (the layers of
# README.md's layout table) and prints every include that crosses one.
#   scripts/check_layers.sh [ROOT]    ROOT: the tree to check (default: this one)
# Exit status: 0 when every include is allowed, 1 when some are not, 2 on misuse.
#
# The rules:
#   arrays/          includes runtime/legato.hpp, runtime/types.hpp and arrays/ only
#   runtime/*.hpp    (the face programs include) includes nothing from runtime/*/
#   runtime/memory/, runtime/gpu/   include nothing from runtime/core/ or runtime/ranks/
#   runtime/         includes nothing from arrays/ or the profile's readers above it
#   analysis/, viewer/, html_export/   include nothing from runtime/ or recorder/
#   analysis/        includes nothing of the readers (legion_import/) or the loader (load/)
#   viewer/, html_export/   include nothing from trace_format/ (they read the model)
#   recorder/        includes trace_format/, base/ and recorder/ only
#   legion_import/   includes trace_format/, base/, the model's reader interface
#                    (analysis/rank_trace.hpp, analysis/run_reader.hpp) and legion_import/ only
#   trace_format/    includes trace_format/ and base/ only
#   base/            includes base/ only (std and system headers otherwise)
set -uo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
if [ ! -d "$root" ]; then
  echo "check_layers.sh: '$root' is not a directory" >&2
  exit 2
fi
cd "$root" || exit 2

violations=0
# violation FILE LINE INCLUDE RULE
violation() {
  echo "$1:$2: includes \"$3\": $4"
  violations=$((violations + 1))
}

# Every project include ("...") of the checked folders, as FILE:LINE:PATH.
includes() {
  local dirs=()
  for d in arrays runtime recorder base trace_format analysis load viewer html_export legion_import; do
    [ -d "$d" ] && dirs+=("$d")
  done
  [ ${#dirs[@]} -eq 0 ] && return
  grep -rnE --include='*.cpp' --include='*.hpp' --include='*.h' --include='*.cu' --include='*.cuh' \
    '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]+"' "${dirs[@]}" |
    sed -E 's/^([^:]+):([0-9]+):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]+)".*/\1:\2:\3/'
}

while IFS=: read -r file line inc; do
  [ -n "$file" ] || continue
  case "$file" in
    arrays/*)
      case "$inc" in
        runtime/legato.hpp | runtime/types.hpp | arrays/*) ;;
        *) violation "$file" "$line" "$inc" "arrays/ uses only the public task API (runtime/legato.hpp, runtime/types.hpp)" ;;
      esac
      ;;
    runtime/*)
      case "$inc" in
        arrays/* | analysis/* | viewer/* | html_export/* | tools/*)
          violation "$file" "$line" "$inc" "the runtime knows nothing of the array library or the profile's readers"
          continue
          ;;
      esac
      case "$file" in
        runtime/*/*) ;;
        *.hpp)
          case "$inc" in
            runtime/*/*) violation "$file" "$line" "$inc" "the face headers (runtime/*.hpp) include nothing from runtime/*/" ;;
          esac
          ;;
      esac
      case "$file" in
        runtime/memory/* | runtime/gpu/*)
          case "$inc" in
            runtime/core/* | runtime/ranks/*)
              violation "$file" "$line" "$inc" "runtime/memory/ and runtime/gpu/ include nothing from runtime/core/ or runtime/ranks/"
              ;;
          esac
          ;;
      esac
      ;;
    analysis/* | viewer/* | html_export/*)
      case "$inc" in
        runtime/* | recorder/*)
          violation "$file" "$line" "$inc" "analysis/, viewer/ and html_export/ read traces, never the runtime or the recorder"
          continue
          ;;
      esac
      case "$file:$inc" in
        analysis/*:legion_import/* | analysis/*:load/*)
          violation "$file" "$line" "$inc" "the model names no reader and not the loader: readers implement analysis/run_reader.hpp, load/ lists them"
          ;;
        viewer/*:trace_format/* | html_export/*:trace_format/*)
          violation "$file" "$line" "$inc" "viewer/ and html_export/ render the model, never the trace format (base/ holds the mechanisms)"
          ;;
      esac
      ;;
    recorder/*)
      case "$inc" in
        recorder/* | trace_format/* | base/*) ;;
        *) violation "$file" "$line" "$inc" "recorder/ includes only trace_format/ and base/" ;;
      esac
      ;;
    legion_import/*)
      case "$inc" in
        legion_import/* | trace_format/* | base/* | analysis/rank_trace.hpp | analysis/run_reader.hpp) ;;
        *) violation "$file" "$line" "$inc" "legion_import/ is a reader: it fills the model's input (analysis/rank_trace.hpp, analysis/run_reader.hpp) from trace_format/ types only" ;;
      esac
      ;;
    trace_format/*)
      case "$inc" in
        trace_format/* | base/*) ;;
        *) violation "$file" "$line" "$inc" "trace_format/ includes nothing of the project above it" ;;
      esac
      ;;
    base/*)
      case "$inc" in
        base/*) ;;
        *) violation "$file" "$line" "$inc" "base/ holds mechanisms with no Legato vocabulary: it includes nothing of the project" ;;
      esac
      ;;
  esac
done < <(includes)

if [ "$violations" -gt 0 ]; then
  echo "check_layers.sh: $violations include(s) cross a layer boundary (rules: scripts/check_layers.sh)"
  exit 1
fi
echo "check_layers.sh: every include in $root keeps to the layers"
