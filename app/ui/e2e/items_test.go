//go:build !js

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"eval752/app/report"
)

// TestItemsBrowse: a set without runs (the seed-002 audit fixture's
// questions alone) can be browsed — one card per question of the file;
// on the demo the items sort by id (reversed: the CLI report's largest id
// first), the sort is in the URL, and a card shows its key metrics with the
// other per-item metrics behind a disclosure.
func TestItemsBrowse(t *testing.T) {
	q := filepath.Join(t.TempDir(), "questions.jsonl")
	if err := copyFile(filepath.Join(env.root, "app", "audit", "testdata", "fixture", "questions.jsonl"), q); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(q)
	lines := bytes.Count(bytes.TrimSpace(raw), []byte("\n")) + 1
	b := newBrowser(t)
	b.open()
	b.upload(q)
	b.waitReady(60 * time.Second)
	b.tab("items")
	b.waitJS(`!!document.querySelector('[data-test=items-count]')`, 10*time.Second)
	if got := eval[string](b, `document.querySelector('[data-test=items-count]').textContent`); got != fmt.Sprintf("%d of %d items match; showing 1–%d", lines, lines, min(lines, 25)) {
		t.Errorf("annotation-only set: %q; the file has %d questions", got, lines)
	}
	if n := eval[int](b, `document.querySelectorAll('[data-test=item]').length`); n != min(lines, 25) {
		t.Errorf("annotation-only set: %d cards", n)
	}

	var rep report.Report
	if err := json.Unmarshal(cli(t, env.demo, "score", "--json"), &rep); err != nil {
		t.Fatal(err)
	}
	ids := make([]string, len(rep.Items))
	for i, it := range rep.Items {
		ids[i] = it.ID
	}
	sort.Strings(ids)
	b.upload(env.demo)
	b.waitReady(60 * time.Second)
	b.tab("items")
	b.waitJS(`!!document.querySelector('[data-test=item]')`, 10*time.Second)
	b.choose(`[data-test=i-sort]`, "id")
	b.click(`[data-test=i-desc]`)
	b.waitHash("isort=id", "idesc=1")
	b.waitJS(fmt.Sprintf(`document.querySelector('[data-test=item]').dataset.id === %q`, ids[len(ids)-1]), 10*time.Second)
	// a card with many per-item metrics: at most 12 shown, the rest folded
	r := eval[[]int](b, `(() => { let best = null, most = 0;
		for (const c of document.querySelectorAll('[data-test=item] .col.run')) { const n = c.querySelectorAll('[data-test=item-metric]').length; if (n > most) { most = n; best = c; } }
		if (!best) return [0, 0, 0];
		const top = [...best.querySelectorAll('[data-test=item-metric]')].filter(e => !e.closest('details')).length;
		const d = best.querySelector('details.more-metrics');
		return [most, top, d && !d.open ? 1 : 0]; })()`)
	if r[0] > 12 && (r[1] > 12 || r[2] != 1) {
		t.Errorf("a card with %d metrics shows %d unfolded (folded list present: %d)", r[0], r[1], r[2])
	}
	if r[0] <= 12 {
		t.Logf("the demo's richest card has %d metrics", r[0])
	}
}

// TestItemRawRecord: an item's "raw record" shows the record as read and
// the findings on its line with their JSON pointers — those
// `eval752 validate` lists for that line.
func TestItemRawRecord(t *testing.T) {
	file := filepath.Join(t.TempDir(), "mcq.jsonl")
	os.WriteFile(file, []byte(`{"id":"m1","type":"mcq_single","inputs":{"text":"q?"},"choices":["a","b"],"answer":"c"}`+"\n"+
		`{"id":"m2","type":"mcq_single","inputs":{"text":"q2?"},"choices":["a","b"],"answer":"a"}`+"\n"), 0o644)
	v := cliValidate(t, file)
	var want []string
	for _, f := range v.Findings {
		if f.Line == 1 {
			want = append(want, f.Code)
		}
	}
	if len(want) == 0 {
		t.Fatal("the CLI finds nothing on line 1: the test would prove nothing")
	}
	b := newBrowser(t)
	b.open()
	b.upload(file)
	b.waitReady(60 * time.Second)
	b.tab("items")
	b.waitJS(`!!document.querySelector('[data-test=item][data-id=m1] [data-test=item-raw]')`, 10*time.Second)
	b.click(`[data-test=item][data-id=m1] [data-test=item-raw]`)
	b.waitJS(`!!document.querySelector('[data-test=raw-record]') && document.querySelector('[data-test=raw-record]').textContent.includes('"answer": "c"')`, 10*time.Second)
	b.waitJS(`document.querySelectorAll('[data-test=raw-finding]').length > 0`, 10*time.Second)
	got := eval[[]string](b, `[...document.querySelectorAll('[data-test=raw-finding]')].map(e => e.dataset.code)`)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("raw record findings %v, CLI on line 1: %v", got, want)
	}
	if p := eval[string](b, `document.querySelector('[data-test=raw-finding]').dataset.pointer`); p != "/answer" {
		t.Errorf("pointer %q, want /answer", p)
	}
	// the choices, the answer marked: m1's answer "c" is none of them,
	// m2's is "a" (the file above)
	ch := eval[[]string](b, `[...document.querySelectorAll('[data-test=item]')].map(c => [...c.querySelectorAll('[data-test=choice]')].map(l => l.firstChild.textContent + (l.dataset.answer === 'true' ? '*' : '')).join(','))`)
	if fmt.Sprint(ch) != "[a,b a*,b]" {
		t.Errorf("choices shown %q, want [a,b a*,b]", ch)
	}
	// line 2 is read from its start offset (workside.ReadLinesAt): its
	// own record, not line 1's
	b.click(`[data-test=item][data-id=m2] [data-test=item-raw]`)
	b.waitJS(`!!document.querySelector('[data-test=raw-record]') && document.querySelector('[data-test=raw-record]').textContent.includes('"id": "m2"')`, 10*time.Second)
	if txt := eval[string](b, `document.querySelector('[data-test=raw-record]').textContent`); !strings.Contains(txt, `"text": "q2?"`) || strings.Contains(txt, `"m1"`) {
		t.Errorf("m2's raw record reads %q; want line 2", txt)
	}
}
