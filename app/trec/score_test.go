package trec

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// issue 9's five lines: NaN scores made map range over 0.4778–0.7000 with
// the order of the lines. Every score that is not a finite number is now a
// located *InputError (file, line), in memory and streaming alike.
func TestNonFiniteScoreIsLocated(t *testing.T) {
	qrels := "q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\n"
	for _, c := range []struct{ score, says string }{
		{"NaN", "not a finite number"},
		{"nan", "not a finite number"},
		{"-inf", "not a finite number"},
		{"Infinity", "not a finite number"},
		{"1e400", "not a finite number"},
		{"1" + strings.Repeat("0", 400), "not a finite number"},
		{"abc", "not a number"},
		{"0.5abc", "not a number (trec_eval's atof would read it as 0.5)"},
		{"--1", "not a number"},
		{"1e", "not a number"},
		// Go's ParseFloat reads "1_5" whole as 15 (digit separators),
		// strtod stops at the "_" and reads 1: no whole reading agrees
		{"1_5", "not a number (trec_eval's atof would read it as 1)"},
		{"0x_1p3", "not a number (trec_eval's atof would read it as 0)"},
	} {
		run := "q1 Q0 d1 1 0.9 t\nq1 Q0 d2 2 0.5 t\nq1 Q0 d3 3 " + c.score + " t\nq1 Q0 d4 4 0.3 t\n"
		o := DefaultOptions()
		o.QrelsName, o.RunName = "qrels", "run"
		_, err := EvaluateBytes([]byte(qrels), []byte(run), o)
		var ie *InputError
		if !errors.As(err, &ie) || ie.File != "run" || ie.Line != 3 || !strings.Contains(ie.Msg, c.says) {
			t.Errorf("score %.20s: err %v; want run:3 saying %q", c.score, err, c.says)
		}
		dir := t.TempDir()
		qp, rp := filepath.Join(dir, "qrels"), filepath.Join(dir, "run")
		os.WriteFile(qp, []byte(qrels), 0o644)
		os.WriteFile(rp, []byte(run), 0o644)
		o.QrelsName, o.RunName = qp, rp
		_, err = EvaluateFiles(context.Background(), qp, rp, o)
		if !errors.As(err, &ie) || ie.Line != 3 || !strings.Contains(ie.Msg, c.says) {
			t.Errorf("streaming, score %.20s: err %v", c.score, err)
		}
	}
	// what strtod reads whole and finite stays accepted: hex floats, a
	// leading "+" or ".", a trailing ".", an underflow to 0
	for _, s := range []string{"0x1.8p1", "+2", ".5", "3.", "1e-400", "-0"} {
		run := "q1 Q0 d1 1 " + s + " t\n"
		if _, err := EvaluateBytes([]byte(qrels), []byte(run), DefaultOptions()); err != nil {
			t.Errorf("score %s: %v", s, err)
		}
	}
}

// Numbers never depend on line order: every permutation of five lines
// (with tied scores, so the docno tie-break decides) gives the same bytes.
func TestScoresIndependentOfLineOrder(t *testing.T) {
	qrels := "q1 0 d1 1\nq1 0 d2 1\nq1 0 d3 0\nq1 0 d4 1\n"
	lines := []string{"q1 Q0 d1 1 0.5 t\n", "q1 Q0 d2 2 0.5 t\n", "q1 Q0 d3 3 0.7 t\n", "q1 Q0 d4 4 0.2 t\n", "q1 Q0 d5 5 0.7 t\n"}
	o := DefaultOptions()
	o.Measures = []string{"all_trec"}
	var want string
	var permute func(k int)
	permute = func(k int) {
		if k == len(lines) {
			r, err := EvaluateBytes([]byte(qrels), []byte(strings.Join(lines, "")), o)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			r.Write(&b, true)
			if want == "" {
				want = b.String()
			} else if b.String() != want {
				t.Fatalf("order %q changes the output", lines)
			}
			return
		}
		for i := k; i < len(lines); i++ {
			lines[k], lines[i] = lines[i], lines[k]
			permute(k + 1)
			lines[k], lines[i] = lines[i], lines[k]
		}
	}
	permute(0)
}
