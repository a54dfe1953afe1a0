package dataset

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestParseYAML(t *testing.T) {
	in := strings.Join([]string{
		"# run config",                     // 1
		"model: text-embedding-v4  # note", // 2
		"dimension: 1024",                  // 3
		"ratio: .5",                        // 4
		"empty:",                           // 5
		`quoted: "a: b # not a comment"`,   // 6
		"single: 'it''s'",                  // 7
		"flag: true",                       // 8
		"nested:",                          // 9
		"  inner: 1",                       // 10
		"  deeper:",                        // 11
		"    x: y",                         // 12
		"list:",                            // 13
		"  - a",                            // 14
		"  - 2",                            // 15
		"model: again",                     // 16 duplicate
		"anchor: &a 1",                     // 17 unsupported
		"\tbad: tab",                       // 18 tab indentation
		"not a mapping line",               // 19
		"last: ~",                          // 20
	}, "\n")
	m, at, lines, fs, err := ParseYAML(strings.NewReader(in), "c.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"model": "again", "dimension": json.Number("1024"), "ratio": json.Number("0.5"), "empty": nil,
		"quoted": "a: b # not a comment", "single": "it's", "flag": true,
		"nested": map[string]any{"inner": json.Number("1"), "deeper": map[string]any{"x": "y"}},
		"list":   []any{"a", json.Number("2")}, "last": nil,
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("got  %#v\nwant %#v", m, want)
	}
	if lines != 20 {
		t.Errorf("lines %d", lines)
	}
	// every key and list item is located at its line (the last of a
	// repeated key wins, as its value does)
	for p, n := range map[string]int{"/model": 16, "/dimension": 3, "/nested": 9, "/nested/inner": 10,
		"/nested/deeper/x": 12, "/list/0": 14, "/list/1": 15, "/last": 20} {
		if at[p] != n {
			t.Errorf("line of %s = %d, want %d", p, at[p], n)
		}
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Code+"@"+itoa(f.Line))
	}
	if w := "yaml.duplicate-key@16,yaml.syntax@17,yaml.syntax@18,yaml.syntax@19"; strings.Join(got, ",") != w {
		t.Errorf("findings %v, want %s", got, w)
	}
}

func TestParseTREC(t *testing.T) {
	q, n, fs, err := ParseQrels(strings.NewReader("qid 0 chunk_id relevance_grade\nq1 0 a 3\nq1 0 b\nq1 0 c x\n# c\nq2 0 d -1\n"), "q.tsv", 0)
	if err != nil {
		t.Fatal(err)
	}
	if n != 6 || len(q.Judgments) != 2 || q.Judgments[1] != (Qrel{Line: 6, QID: "q2", DocNo: "d", Grade: -1}) {
		t.Errorf("qrels %+v", q)
	}
	var got []string
	for _, f := range fs {
		got = append(got, f.Code+"@"+itoa(f.Line))
	}
	if strings.Join(got, ",") != "trec.syntax@3,trec.syntax@4" {
		t.Errorf("findings %v", got)
	}
	r, _, fs, _ := ParseRun(strings.NewReader("q1 Q0 a 1 2.5 tagA\nq1 Q0 b 2 x tagA\nq1 Q0 c 3 1e-3 tagA extra\nq1 Q0 d 1.0 -1 tagA\n"), "r", 0)
	if len(r.Lines) != 2 || r.Tag != "tagA" || r.Lines[1].Score != -1 || r.Lines[1].Rank != 0 || r.Lines[1].Line != 4 {
		t.Errorf("run %+v", r)
	}
	got = nil
	for _, f := range fs {
		got = append(got, f.Code+"@"+itoa(f.Line))
	}
	if strings.Join(got, ",") != "trec.syntax@2,trec.syntax@3" {
		t.Errorf("findings %v", got)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
