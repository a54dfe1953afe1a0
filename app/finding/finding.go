// Package finding defines the one diagnostic type every check in eval752
// produces, and the registry of rules that produce them.
//
// A Finding is data, not an error: reading goes on after a bad line, and the
// caller decides what to do with the list (print it, count it, fail CI on it).
package finding

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Severity orders findings: an Error fails validation, a Warning asks for a
// human look, an Info records something the reviewer should know.
type Severity int

const (
	Error Severity = iota
	Warning
	Info
)

var severityNames = [...]string{"error", "warning", "info"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return fmt.Sprintf("severity(%d)", int(s))
	}
	return severityNames[s]
}

// ParseSeverity is the inverse of String.
func ParseSeverity(s string) (Severity, error) {
	for i, n := range severityNames {
		if n == s {
			return Severity(i), nil
		}
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

func (s *Severity) UnmarshalJSON(b []byte) error {
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return err
	}
	v, err := ParseSeverity(str)
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Finding is one located diagnostic.
//
// Path names the file; inside a bundle it is "bundle.eval752.zip!sections/a.jsonl".
// Line is 1-based, 0 when the finding is about the file (or set) as a whole.
// Pointer is an RFC 6901 JSON pointer into the line's record ("" = whole record).
type Finding struct {
	Severity Severity `json:"severity"`
	Code     string   `json:"code"`
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Pointer  string   `json:"pointer"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint"`
	// More, when not 0, makes this finding the summary of More findings
	// of its code and file that were counted but not kept (List.Cap):
	// "… and 48,211 more schema.required in items.jsonl". Counts and
	// PerCode count it as More.
	More int `json:"more,omitempty"`
}

// String formats f the way the CLI prints it: "path:line: severity code:
// message", one inert line (see Inert).
func (f Finding) String() string {
	var b strings.Builder
	b.WriteString(Inert(f.Path))
	if f.Line > 0 {
		fmt.Fprintf(&b, ":%d", f.Line)
	}
	fmt.Fprintf(&b, ": %s %s: %s", f.Severity, f.Code, Inert(f.Message))
	if f.Pointer != "" {
		fmt.Fprintf(&b, " (at %s)", Inert(f.Pointer))
	}
	return b.String()
}

// Less is the canonical order: path, line, severity, code, pointer, message.
func Less(a, b Finding) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Severity != b.Severity {
		return a.Severity < b.Severity
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	if a.Pointer != b.Pointer {
		return a.Pointer < b.Pointer
	}
	return a.Message < b.Message
}

// List is a set of findings with helpers to normalise and count them.
type List []Finding

// Normalize sorts l canonically and removes exact duplicates (same severity,
// code, path, line, pointer and message). It returns the shortened list.
func (l List) Normalize() List {
	sort.SliceStable(l, func(i, j int) bool { return Less(l[i], l[j]) })
	out := l[:0]
	for i, f := range l {
		if i > 0 {
			p := out[len(out)-1]
			if p.Severity == f.Severity && p.Code == f.Code && p.Path == f.Path &&
				p.Line == f.Line && p.Pointer == f.Pointer && p.Message == f.Message {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// Counts holds the number of findings per severity.
type Counts struct {
	Error   int `json:"error"`
	Warning int `json:"warning"`
	Info    int `json:"info"`
}

// Counts tallies l per severity.
func (l List) Counts() Counts {
	var c Counts
	for _, f := range l {
		switch f.Severity {
		case Error:
			c.Error += f.weight()
		case Warning:
			c.Warning += f.weight()
		default:
			c.Info += f.weight()
		}
	}
	return c
}

// CodeCount is the number of findings that carry one rule code.
type CodeCount struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Count    int      `json:"count"`
}

// PerCode counts l per rule code, ordered by code.
func (l List) PerCode() []CodeCount {
	idx := map[string]int{}
	var out []CodeCount
	for _, f := range l {
		i, ok := idx[f.Code]
		if !ok {
			i = len(out)
			idx[f.Code] = i
			out = append(out, CodeCount{Code: f.Code, Severity: f.Severity})
		}
		out[i].Count += f.weight()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}
