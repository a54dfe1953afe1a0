package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"eval752/app/engine"
)

// compare --baseline b: c is right on 1 of 4 where b is right on 4 (McNemar
// b = 3, c = 0: exact p = 2·1/2^3 = 0.25), d on 3 of 4 (b = 1: p = 2·1/2 = 1,
// capped). Holm over m = 2: c min(1, 2·0.25) = 0.5, d max(0.5, 1) = 1.
// Both comparisons touch split=test, so a budget of 1 warns.
func TestCompareBaselineCLI(t *testing.T) {
	files := []string{"testdata/gate/items.jsonl", "testdata/gate/many.jsonl"}
	out, stderr, code := runMain(t, append([]string{"compare", "--baseline", "b", "--metric", "answer.correct", "--test-budget", "1"}, files...)...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "warning: 2 comparisons with the baseline on the test split exceed the budget of 1") {
		t.Errorf("no budget warning on stderr: %q", stderr)
	}
	for _, want := range []string{
		"answer.correct  c    1.0000 [1.0000, 1.0000] n=4/4  0.2500",
		"McNemar exact  0.2500  0.5000    2  ~",
		"McNemar exact  1.0000  1.0000    2  ~",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	tex, _, code := runMain(t, append([]string{"compare", "--baseline", "b", "--latex", "--metric", "answer.correct"}, files...)...)
	if code != ExitOK || !strings.Contains(tex, "b (baseline) & 1.0000 \\\\") || !strings.Contains(tex, "c & 0.2500 \\\\") {
		t.Errorf("LaTeX:\n%s", tex)
	}
	for _, bad := range [][]string{
		{"compare", "--baseline", "nope"},
		{"compare", "--baseline", "b", "--run", "b"},
		{"compare", "--run", "c", "a", "b"},
		{"compare", "--baseline", "b", "--csv"},
	} {
		if _, _, code := runMain(t, append(bad, files...)...); code != ExitCantRun {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	// the engine's Many report (the page's Comparison view, the results
	// bundle's many.md) is what `compare --baseline FIRST --md` prints
	md, _, _ := runMain(t, append([]string{"compare", "--baseline", "b", "--md"}, files...)...)
	inputs, closeAll, err := openInputs(files, "")
	if err != nil {
		t.Fatal(err)
	}
	defer closeAll()
	res, err := engine.Evaluate(context.Background(), inputs, engine.DefaultOptions(), nil)
	if err != nil || res.Many == nil {
		t.Fatalf("engine: %v, many %v", err, res.Many != nil)
	}
	var buf bytes.Buffer
	if err := res.Many.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if buf.String() != md {
		t.Errorf("engine Many report differs from the CLI's")
	}
}
