# The register-line experiment (docs/benchmarks.md, 2026-11-23), run on the
# GPU machine as `bash run.sh --reps 5 --bytes 268435493 --builds
# nvcc,sl1,handc,hand,hand32 --apps wc,grep,opinion,invindex,pvc,dna,matmul,affinity,kmeans`
# from a folder holding bin/sl1-bench, apps/ (testdata/apps sources), hand/
# (the .cu files here and regline.cuh), ptx/sl1 (sl1-driver build --emit ptx)
# and ptx/handc (the hand sources, sl1-driver build --emit ptx --no-sl1).
set -e
cd "$(dirname "$0")"
mkdir -p ptx/nvcc ptx/hand ptx/hand32
for src in apps/*.cu; do a=$(basename $src .cu); nvcc -O3 -arch=sm_90 -std=c++17 --ptx $src -o ptx/nvcc/$a.ptx; done
for src in hand/*.cu; do a=$(basename $src .cu); nvcc -O3 -arch=sm_90 -std=c++17 --ptx $src -o ptx/hand/$a.ptx; nvcc -O3 -arch=sm_90 -std=c++17 -DRL32 --ptx $src -o ptx/hand32/$a.ptx; done
cp ptx/sl1/upper.ptx ptx/hand/; cp ptx/sl1/upper.ptx ptx/hand32/
bin/sl1-bench --bundle . --json "$OUT/results.json" "$@"
