package trec

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// randomInput makes small qrels/run files with random qids, docnos,
// grades (including negative), scores (ties, exponents, garbage), comments,
// blank lines, CRLF endings and occasionally a malformed line.
func randomInput(rng *rand.Rand) (qrels, run string) {
	qids := []string{"1", "10", "2", "a", "B"}
	docs := []string{"d1", "d2", "d3", "D1", "d10", "x", "y"}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var qb, rb strings.Builder
	seen := map[string]bool{}
	for i := rng.IntN(12); i >= 0; i-- {
		q, d := pick(qids), pick(docs)
		if seen[q+" "+d] && rng.IntN(10) != 0 { // mostly avoid duplicate judgments
			continue
		}
		seen[q+" "+d] = true
		fmt.Fprintf(&qb, "%s 0 %s %d\n", q, d, rng.IntN(6)-2)
		if rng.IntN(15) == 0 {
			qb.WriteString("# comment\n\n")
		}
	}
	scores := []string{"1", "1.0", "0.5", "-1e-300", "0", "2e3", "abc", "3.5x", ".5"}
	for i := rng.IntN(30); i >= 0; i-- {
		line := fmt.Sprintf("%s Q0 %s %d %s run%d", pick(qids), pick(docs), i, pick(scores), rng.IntN(2))
		switch rng.IntN(40) {
		case 0:
			line = pick(qids) + " Q0 " + pick(docs) // malformed
		case 1:
			line = "  " + line + "\r"
		case 2:
			line = "#" + line
		}
		rb.WriteString(line + "\n")
	}
	return qb.String(), rb.String()
}

// TestRandomInputsConsistent: on hundreds of random inputs and options the
// evaluation never panics, and the streaming file reader (tiny blocks,
// possibly ungrouped runs) gives exactly the result or error of the
// in-memory path.
func TestRandomInputsConsistent(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tmp := t.TempDir()
	saved := runBlock
	defer func() { runBlock = saved }()
	for n := 0; n < 300; n++ {
		qrels, run := randomInput(rng)
		o := DefaultOptions()
		o.Measures = []string{"all_trec"}
		o.RelLevel = int64(rng.IntN(4) - 1)
		o.MaxDocs = int64(rng.IntN(4))
		o.JudgedOnly = rng.IntN(4) == 0
		o.Complete = rng.IntN(2) == 0
		o.QrelsName, o.RunName = "qrels", "run"
		r1, err1 := EvaluateBytes([]byte(qrels), []byte(run), o)

		qp, rp := filepath.Join(tmp, "qrels"), filepath.Join(tmp, "run")
		os.WriteFile(qp, []byte(qrels), 0o644)
		os.WriteFile(rp, []byte(run), 0o644)
		runBlock = 16 + rng.IntN(64)
		r2, err2 := EvaluateFiles(context.Background(), qp, rp, o)

		if (err1 == nil) != (err2 == nil) {
			t.Fatalf("case %d: in-memory err %v, streaming err %v\nqrels:\n%s\nrun:\n%s", n, err1, err2, qrels, run)
		}
		if err1 != nil {
			e1, e2 := err1.(*InputError), err2.(*InputError)
			if e1.Line != e2.Line || e1.Msg != e2.Msg {
				t.Fatalf("case %d: errors differ: %v / %v", n, err1, err2)
			}
			continue
		}
		var b1, b2 bytes.Buffer
		r1.Write(&b1, true)
		r2.Write(&b2, true)
		if b1.String() != b2.String() {
			t.Fatalf("case %d: outputs differ\nqrels:\n%s\nrun:\n%s", n, qrels, run)
		}
	}
}

// FuzzEvaluateBytes: arbitrary bytes must give a result or an error, never
// a panic or a hang. `go test -fuzz FuzzEvaluateBytes ./app/trec/` explores;
// plain `go test` runs the seeds.
func FuzzEvaluateBytes(f *testing.F) {
	f.Add([]byte(qrelsA), []byte(runA))
	f.Add([]byte("q 0 a 999999\n"), []byte("q Q0 a 1 nan t\n"))
	f.Add([]byte("q 0 a -5\n"), []byte("q Q0 a 1 1 t\nq Q0 a 1 1 t\n"))
	// issue 9: scores that are not whole finite numbers, and exponents
	f.Add([]byte("q 0 a 1\nq 0 b 1\n"), []byte("q Q0 a 1 NaN t\nq Q0 b 2 -Infinity t\nq Q0 c 3 0.5abc t\n"))
	f.Add([]byte("q 0 a 1\n"), []byte("q Q0 a 1 1e-9999999 t\nq Q0 b 2 1e99999999999 t\nq Q0 c 3 0x1.8p1 t\n"))
	f.Fuzz(func(t *testing.T, qrels, run []byte) {
		o := DefaultOptions()
		o.Measures = []string{"all_trec"}
		o.Complete = true
		EvaluateBytes(qrels, run, o)
	})
}
