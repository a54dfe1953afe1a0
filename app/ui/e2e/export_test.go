//go:build !js

package e2e

import (
	"bytes"
	"encoding/csv"
	"strings"
	"testing"
	"time"
)

// TestItemsAndRoundedCSV: the per-item CSV download is byte for byte
// `eval752 score --items-csv` and the score CSV `eval752 score --csv`, both
// named after the bundle's meta.json name; the CSV numbers have at most 6
// significant digits (the score JSON keeps 17).
func TestItemsAndRoundedCSV(t *testing.T) {
	b := newBrowser(t)
	b.open()
	dl := b.downloads()
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	b.tab("export")
	b.click(`[data-test=export-items-csv]`)
	items := waitFile(t, dl, exportName(t, env.demo, "items.csv"), 20*time.Second)
	if want := cli(t, env.demo, "score", "--items-csv"); !bytes.Equal(items, want) {
		t.Errorf("items CSV (%d bytes) differs from `eval752 score --items-csv` (%d bytes)", len(items), len(want))
	}
	recs, err := csv.NewReader(bytes.NewReader(items)).ReadAll()
	if err != nil || len(recs) < 2 || strings.Join(recs[0][:10], ",") != "item,run,path,line,strata,question,reference,answer,verdict,flags" {
		t.Fatalf("items CSV: %v, header %q", err, recs[0])
	}
	b.click(`[data-test=export-score-csv]`)
	sc := waitFile(t, dl, exportName(t, env.demo, "score.csv"), 20*time.Second)
	if want := cli(t, env.demo, "score", "--csv"); !bytes.Equal(sc, want) {
		t.Errorf("score CSV differs from `eval752 score --csv`")
	}
	rows, err := csv.NewReader(bytes.NewReader(sc)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows[1:] {
		for _, v := range r[5:8] { // value, ci_low, ci_high
			if d := sigDigits(v); d > 6 {
				t.Fatalf("score CSV value %q has %d significant digits (row %q)", v, d, r)
			}
		}
	}
}

// sigDigits counts the significant digits of a decimal fraction in plain
// notation; whole numbers (printed exactly) count 0.
func sigDigits(v string) int {
	if !strings.Contains(v, ".") {
		return 0
	}
	v = strings.TrimLeft(strings.TrimPrefix(v, "-"), "0.")
	return len(strings.ReplaceAll(v, ".", ""))
}
