//go:build ignore

// Copied from the project's shared benchmark folder (bench/gen_trec_bench.go), unchanged
// below this note, so the scripted benchmarks stand alone; trec_eval's figures on its
// default output are quoted in scripts/lib-bench.sh.

// gen_trec_bench: deterministic generator of a large qrels/run pair for benchmarks.
//
//	go run gen_trec_bench.go -out /tmp/trec_bench        (defaults below)
//
// Writes OUT/qrels and OUT/run.  Output depends only on the flags (pure
// SplitMix64 arithmetic, no map iteration, no math/rand), so the same flags
// always give byte-identical files.
//
// Run:   Q queries (qid "1".."Q"), D ranked docs each, rank column = 1..D,
//
//	scores a decreasing random walk printed with 3 decimals (so some
//	adjacent docs tie and the docno tie-break is exercised).
//
// Qrels: per query J judged docs: R (=J-15) drawn from the ranked list
//
//	(biased to the top) + 15 not retrieved; grades 0-3.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

type splitmix64 struct{ s uint64 }

func (r *splitmix64) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func (r *splitmix64) uniform() float64      { return float64(r.next()>>11) / float64(uint64(1)<<53) }
func (r *splitmix64) below(n uint64) uint64 { return r.next() % n }

const universe = 10000000 // docno space D0000000..D9999999
const stride = 104729     // prime, coprime with 1e7 -> distinct docnos per query

func grade(u float64, cum [3]float64) int {
	switch {
	case u < cum[0]:
		return 0
	case u < cum[1]:
		return 1
	case u < cum[2]:
		return 2
	}
	return 3
}

func main() {
	out := flag.String("out", "/tmp/trec_bench", "output directory")
	seed := flag.Uint64("seed", 20240917, "SplitMix64 seed")
	nq := flag.Int("queries", 20000, "number of queries")
	nd := flag.Int("docs", 1000, "ranked docs per query")
	nj := flag.Int("judged", 50, "judged docs per query (15 of them not retrieved)")
	flag.Parse()
	if *nj < 15 || *nj-15 > *nd {
		fmt.Fprintln(os.Stderr, "need 15 <= judged <= docs+15")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		panic(err)
	}
	rf, err := os.Create(filepath.Join(*out, "run"))
	if err != nil {
		panic(err)
	}
	qf, err := os.Create(filepath.Join(*out, "qrels"))
	if err != nil {
		panic(err)
	}
	rw := bufio.NewWriterSize(rf, 1<<20)
	qw := bufio.NewWriterSize(qf, 1<<20)
	rng := &splitmix64{*seed}
	buf := make([]byte, 0, 128)
	docno := func(b []byte, id uint64) []byte {
		b = append(b, 'D')
		s := strconv.FormatUint(id, 10)
		for i := len(s); i < 7; i++ {
			b = append(b, '0')
		}
		return append(b, s...)
	}
	picked := make([]bool, *nd)
	nRetJudged := *nj - 15
	for q := 1; q <= *nq; q++ {
		qid := strconv.Itoa(q)
		base := rng.below(universe)
		id := func(j int) uint64 { return (base + uint64(j)*stride) % universe }
		// run
		score := 50.0
		for j := 0; j < *nd; j++ {
			score -= rng.uniform() * 0.01
			buf = buf[:0]
			buf = append(buf, qid...)
			buf = append(buf, " Q0 "...)
			buf = docno(buf, id(j))
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, score, 'f', 3, 64)
			buf = append(buf, " bench\n"...)
			rw.Write(buf)
		}
		// qrels: retrieved judged docs, rank ~ D*u^2 (top-biased), distinct
		for j := range picked {
			picked[j] = false
		}
		for k := 0; k < nRetJudged; {
			u := rng.uniform()
			j := int(float64(*nd) * u * u)
			if picked[j] {
				continue
			}
			picked[j] = true
			k++
			var g int
			if j < 100 {
				g = grade(rng.uniform(), [3]float64{0.45, 0.75, 0.90})
			} else {
				g = grade(rng.uniform(), [3]float64{0.70, 0.90, 0.97})
			}
			buf = buf[:0]
			buf = append(buf, qid...)
			buf = append(buf, " 0 "...)
			buf = docno(buf, id(j))
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(g), 10)
			buf = append(buf, '\n')
			qw.Write(buf)
		}
		for k := 0; k < 15; k++ { // judged, never retrieved
			g := grade(rng.uniform(), [3]float64{0.60, 0.85, 0.95})
			buf = buf[:0]
			buf = append(buf, qid...)
			buf = append(buf, " 0 "...)
			buf = docno(buf, id(*nd+k))
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(g), 10)
			buf = append(buf, '\n')
			qw.Write(buf)
		}
	}
	for _, w := range []*bufio.Writer{rw, qw} {
		if err := w.Flush(); err != nil {
			panic(err)
		}
	}
	rf.Close()
	qf.Close()
	fmt.Printf("wrote %s/run (%d lines) and %s/qrels (%d lines)\n",
		*out, *nq**nd, *out, *nq**nj)
}
