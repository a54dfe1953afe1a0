package validate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Test fixtures are built the way the readers build records: the JSON text
// of one line decoded into the typed struct (V) and generically with
// UseNumber (Raw), with its path and line.

// testFiles is the file table of the fixtures' records: runCases (and
// withFiles) gives it to the Dataset under test.
var testFiles dataset.Dataset

// withFiles gives ds the fixtures' file table (when it has none).
func withFiles(ds *dataset.Dataset) *dataset.Dataset {
	if ds != nil && ds.Files == nil {
		ds.Files = testFiles.Files
	}
	return ds
}

func rec[T any](path string, line int, js string) dataset.Rec[T] {
	var v T
	typed := json.Unmarshal([]byte(js), &v) == nil
	d := json.NewDecoder(strings.NewReader(js))
	d.UseNumber()
	var raw any
	if err := d.Decode(&raw); err != nil {
		panic(fmt.Sprintf("fixture %s:%d is not JSON: %v", path, line, err))
	}
	return dataset.Rec[T]{Loc: testFiles.At(path, line, 0), Raw: raw, V: v, Typed: typed}
}

func recp[T any](path string, line int, js string) *dataset.Rec[T] {
	r := rec[T](path, line, js)
	return &r
}

// patch returns base (a JSON object) with edits applied: pairs of a slash
// path ("gold/0/region") and a value; the value del removes the key.
func patch(base string, kv ...any) string {
	var m any
	d := json.NewDecoder(strings.NewReader(base))
	d.UseNumber()
	if err := d.Decode(&m); err != nil {
		panic("patch base: " + err.Error())
	}
	for i := 0; i < len(kv); i += 2 {
		parts := strings.Split(kv[i].(string), "/")
		m = setPath(m, parts, kv[i+1])
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		panic(err)
	}
	return strings.TrimSpace(b.String())
}

type delMarker struct{}

var del = delMarker{}

// raw is a JSON value given as text, for patch.
type raw string

func setPath(v any, parts []string, val any) any {
	if len(parts) == 0 {
		if r, ok := val.(raw); ok {
			var x any
			d := json.NewDecoder(strings.NewReader(string(r)))
			d.UseNumber()
			if err := d.Decode(&x); err != nil {
				panic("patch raw: " + err.Error())
			}
			return x
		}
		return val
	}
	switch c := v.(type) {
	case map[string]any:
		if len(parts) == 1 && val == del {
			delete(c, parts[0])
			return c
		}
		c[parts[0]] = setPath(c[parts[0]], parts[1:], val)
		return c
	case []any:
		i, err := strconv.Atoi(parts[0])
		if err != nil || i < 0 || i >= len(c) {
			panic("patch: bad index " + parts[0])
		}
		c[i] = setPath(c[i], parts[1:], val)
		return c
	case nil:
		m := map[string]any{}
		m[parts[0]] = setPath(nil, parts[1:], val)
		return m
	}
	panic(fmt.Sprintf("patch: cannot descend into %T", v))
}

func newDS(formats ...model.Format) *dataset.Dataset {
	ds := &dataset.Dataset{Has: map[model.Format]bool{}}
	for _, f := range formats {
		ds.Has[f] = true
	}
	return ds
}

// ruleCase is one fixture: a dataset, the rule under test, and the exact
// locations ("path:line:pointer") its findings must have. want == nil means
// the rule must stay silent on this dataset.
type ruleCase struct {
	name string
	code string
	ds   func() *dataset.Dataset
	opt  *Options
	want []string
	// msg, when set, must be a substring of one of the findings' messages.
	msg string
}

func locs(l finding.List, code string) ([]string, []finding.Finding) {
	var out []string
	var fs []finding.Finding
	for _, f := range l {
		if f.Code == code {
			out = append(out, fmt.Sprintf("%s:%d:%s", f.Path, f.Line, f.Pointer))
			fs = append(fs, f)
		}
	}
	sort.Strings(out)
	return out, fs
}

// covered records, per code, whether a triggering and a silent case ran.
var covered = map[string][2]bool{}

func runCases(t *testing.T, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.code+"/"+tc.name, func(t *testing.T) {
			if _, ok := finding.Lookup(tc.code); !ok {
				t.Fatalf("code %q is not registered", tc.code)
			}
			opt := DefaultOptions()
			if tc.opt != nil {
				opt = *tc.opt
			}
			all := Run(withFiles(tc.ds()), opt)
			got, fs := locs(all, tc.code)
			want := append([]string(nil), tc.want...)
			sort.Strings(want)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("findings of %s:\n got  %q\n want %q\nall findings:\n%s", tc.code, got, want, dump(all))
			}
			if tc.msg != "" && len(fs) > 0 {
				found := false
				for _, f := range fs {
					found = found || strings.Contains(f.Message, tc.msg)
				}
				if !found {
					t.Errorf("no %s message contains %q:\n%s", tc.code, tc.msg, dump(fs))
				}
			}
			for _, f := range fs {
				r, _ := finding.Lookup(f.Code)
				if f.Severity != r.Severity {
					t.Errorf("finding %v has severity %v, rule says %v", f, f.Severity, r.Severity)
				}
			}
			cv := covered[tc.code]
			if len(tc.want) > 0 {
				cv[0] = true
			} else {
				cv[1] = true
			}
			covered[tc.code] = cv
		})
	}
}

func dump(l finding.List) string {
	var b strings.Builder
	for _, f := range l {
		b.WriteString("  " + f.String() + "\n")
	}
	return b.String()
}
