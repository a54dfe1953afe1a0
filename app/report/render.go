package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"eval752/app/finding"
)

// FormatValue prints a figure the way every renderer prints it.
func (c Cell) FormatValue() string {
	if c.Value == nil {
		if c.Metric != "" {
			return "n/a"
		}
		return c.Text
	}
	v := *c.Value
	switch {
	case math.IsNaN(v):
		return "n/a"
	case c.Int:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	d := c.Digits
	if d == 0 {
		d = 4
	}
	// a non-zero value that would print as zero (a McNemar p of 5.6e-07)
	// says how small it is instead
	if tiny := 0.5 * math.Pow10(-d); v != 0 && math.Abs(v) < tiny {
		bound := strconv.FormatFloat(math.Pow10(-d), 'f', d, 64)
		if v > 0 {
			return "<" + bound
		}
		return ">-" + bound
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// String is the cell as one line of text: value [lo, hi] n/denom threshold ✓/✗ flag.
func (c Cell) String() string {
	if c.Value == nil && c.Metric == "" {
		return c.Text
	}
	var b strings.Builder
	b.WriteString(c.FormatValue())
	d := c.Digits
	if d == 0 {
		d = 4
	}
	if c.CILow != nil && c.CIHigh != nil {
		fmt.Fprintf(&b, " [%s, %s]", strconv.FormatFloat(*c.CILow, 'f', d, 64), strconv.FormatFloat(*c.CIHigh, 'f', d, 64))
	}
	if c.N != nil && c.Denom != nil {
		fmt.Fprintf(&b, " n=%d/%d", *c.N, *c.Denom)
	} else if c.N != nil {
		fmt.Fprintf(&b, " n=%d", *c.N)
	}
	if c.Threshold != "" {
		b.WriteString(" " + c.Threshold)
		if c.Pass != nil {
			if *c.Pass {
				b.WriteString(" pass")
			} else {
				b.WriteString(" FAIL")
			}
		}
	}
	if c.Flag != "" {
		b.WriteString(" [" + c.Flag + "]")
	}
	return b.String()
}

// WriteJSON writes r as indented JSON followed by a newline, streamed
// (Stream: the bytes of json.Encoder with SetIndent("", "  "), without
// building the document first).
func (r *Report) WriteJSON(w io.Writer) error {
	s := NewStream(w)
	s.WriteReport(0, r)
	return s.Close()
}

// WriteText writes r as aligned plain text. Every string from the inputs
// (paths, names, labels, notes) is printed inert (finding.Inert): a control
// character shows escaped, so no value can break a line or drive the
// terminal.
func (r *Report) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	in := finding.Inert
	title := in(r.Title)
	ew.printf("%s\n%s\n", title, strings.Repeat("=", displayWidth(title)))
	ew.printf("tool: %s %s\n", r.Tool.Name, r.Tool.Version)
	for _, kv := range r.Config {
		ew.printf("config: %s = %s\n", in(kv.Key), in(kv.Value))
	}
	for _, inp := range r.Inputs {
		ew.printf("input: %s  %s  sha256:%s\n", in(inp.Path), inp.Format, inp.SHA256)
	}
	for _, s := range r.Sections {
		ew.printf("\n## %s\n", in(s.Title))
		for _, p := range s.Text {
			ew.printf("%s\n", in(p))
		}
		for _, t := range s.Tables {
			ew.printf("\n")
			if t.Title != "" {
				ew.printf("%s\n", in(t.Title))
			}
			writeAligned(ew, t)
			for _, n := range t.Notes {
				ew.printf("  note: %s\n", in(n))
			}
		}
		for _, n := range s.Notes {
			ew.printf("note: %s\n", in(n))
		}
	}
	return ew.err
}

func writeAligned(ew *errWriter, t Table) {
	cells := make([][]string, 0, len(t.Rows)+1)
	head := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		head[i] = finding.Inert(c.Label)
	}
	cells = append(cells, head)
	for _, row := range t.Rows {
		line := make([]string, len(t.Columns))
		for i := range line {
			if i < len(row) {
				line[i] = finding.Inert(row[i].String())
			}
		}
		cells = append(cells, line)
	}
	width := make([]int, len(t.Columns))
	for _, line := range cells {
		for i, s := range line {
			width[i] = max(width[i], displayWidth(s))
		}
	}
	for _, line := range cells {
		var b strings.Builder
		for i, s := range line {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(s)
			if i < len(line)-1 {
				b.WriteString(strings.Repeat(" ", width[i]-displayWidth(s)))
			}
		}
		ew.printf("%s\n", strings.TrimRight(b.String(), " "))
	}
}

// displayWidth counts East Asian wide characters as two columns so Chinese
// labels line up in a terminal.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x1100 && (r <= 0x115f || r == 0x2329 || r == 0x232a ||
			(r >= 0x2e80 && r <= 0xa4cf && r != 0x303f) || (r >= 0xac00 && r <= 0xd7a3) ||
			(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe30 && r <= 0xfe4f) ||
			(r >= 0xff00 && r <= 0xff60) || (r >= 0xffe0 && r <= 0xffe6)):
			n += 2
		default:
			n++
		}
	}
	return n
}

// WriteMarkdown writes r as GitHub-flavoured Markdown.
func (r *Report) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("# %s\n\n", mdEscape(r.Title))
	ew.printf("Produced by %s %s.\n\n", r.Tool.Name, r.Tool.Version)
	if len(r.Inputs) > 0 {
		ew.printf("| input | format | sha256 |\n|---|---|---|\n")
		for _, in := range r.Inputs {
			ew.printf("| %s | %s | `%s` |\n", mdEscape(in.Path), in.Format, in.SHA256)
		}
		ew.printf("\n")
	}
	if len(r.Config) > 0 {
		ew.printf("<details><summary>Configuration</summary>\n\n| key | value |\n|---|---|\n")
		for _, kv := range r.Config {
			ew.printf("| %s | %s |\n", mdEscape(kv.Key), mdEscape(kv.Value))
		}
		ew.printf("\n</details>\n\n")
	}
	for _, s := range r.Sections {
		ew.printf("## %s\n\n", mdEscape(s.Title))
		for _, p := range s.Text {
			ew.printf("%s\n\n", mdEscape(p))
		}
		for _, t := range s.Tables {
			if t.Title != "" {
				ew.printf("**%s**\n\n", mdEscape(t.Title))
			}
			ew.printf("|")
			for _, c := range t.Columns {
				ew.printf(" %s |", mdEscape(c.Label))
			}
			ew.printf("\n|")
			for range t.Columns {
				ew.printf("---|")
			}
			ew.printf("\n")
			for _, row := range t.Rows {
				ew.printf("|")
				for i := range t.Columns {
					s := ""
					if i < len(row) {
						s = row[i].String()
					}
					ew.printf(" %s |", mdEscape(s))
				}
				ew.printf("\n")
			}
			ew.printf("\n")
			for _, n := range t.Notes {
				ew.printf("> %s\n", mdEscape(n))
			}
			if len(t.Notes) > 0 {
				ew.printf("\n")
			}
		}
		for _, n := range s.Notes {
			ew.printf("* %s\n", mdEscape(n))
		}
		if len(s.Notes) > 0 {
			ew.printf("\n")
		}
	}
	return ew.err
}

// mdEscape makes s one inert piece of a Markdown line: a pipe cannot end a
// table cell, a line break (\n, \r: CommonMark ends a line at either) is a
// space, and any other control character shows escaped (finding.Inert).
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
	return finding.Inert(s)
}

// CSVDigits is the precision of the numbers of every CSV export (the
// score, comparison and audit CSVs and the per-item CSV): 6 significant
// digits, whole numbers exact. JSON keeps full precision.
const CSVDigits = 6

// CSVNumber prints v for a CSV: a whole number as is (150, 1234567), any
// other value rounded to CSVDigits significant digits, never in exponent
// form (0.733333, 0.000012345, 1234570); NaN is empty.
func CSVNumber(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.IsInf(v, 0):
		return strconv.FormatFloat(v, 'f', -1, 64)
	case v == 0:
		return "0"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', CSVDigits, 64), 64)
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// CSVText guards a free-text CSV cell against spreadsheet formula
// injection (OWASP "CSV injection"): a value that starts with =, +, -, @,
// a tab or a carriage return is written with a leading apostrophe, which
// spreadsheets show as text and never evaluate ('=1+1 shows as =1+1).
// Every other value is written as it is. Number columns go through
// CSVNumber and are never prefixed; a text cell such as a run's answer
// "-5" becomes '-5.
func CSVText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// CSVTexts applies CSVText to each of ss.
func CSVTexts(ss ...string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = CSVText(s)
	}
	return out
}

// WriteItemsCSV writes the per-item CSV: one row per item and run (one row
// with an empty run for an item no run answered) — item, run, path, line,
// strata ("split=test; type=mcq"), question, reference, answer, verdict
// (correct, incorrect, missing or empty), flags, then one column per
// per-item metric (every metric any run has, sorted; empty where a run has
// none), numbers as CSVNumber prints them.
func WriteItemsCSV(w io.Writer, items []ItemDetail) error {
	seen := map[string]bool{}
	var metrics []string
	for i := range items {
		for _, r := range items[i].Runs {
			for k := range r.Scores.Names() {
				if !seen[k] {
					seen[k] = true
					metrics = append(metrics, k)
				}
			}
		}
	}
	sort.Strings(metrics)
	cw := csv.NewWriter(w)
	head := append([]string{"item", "run", "path", "line", "strata", "question", "reference", "answer", "verdict", "flags"}, metrics...)
	if err := cw.Write(head); err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		var strata []string
		for k, v := range it.Strata {
			strata = append(strata, k+"="+v)
		}
		sort.Strings(strata)
		base := []string{CSVText(it.ID), "", CSVText(it.Path), strconv.Itoa(it.Line), CSVText(strings.Join(strata, "; ")), CSVText(it.Question), CSVText(it.Reference)}
		runs := it.Runs
		if len(runs) == 0 {
			runs = []RunItem{{}}
		}
		for _, r := range runs {
			verdict := ""
			switch {
			case r.Missing:
				verdict = "missing"
			case r.Correct != nil && *r.Correct:
				verdict = "correct"
			case r.Correct != nil:
				verdict = "incorrect"
			}
			rec := append(append([]string{}, base...), CSVText(r.Response), verdict, CSVText(strings.Join(r.Flags, "; ")))
			rec[1] = CSVText(r.Run)
			for _, m := range metrics {
				if v, ok := r.Scores.Get(m); ok {
					rec = append(rec, CSVNumber(v))
				} else {
					rec = append(rec, "")
				}
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteCSV writes every table of r as long-format CSV, one row per cell:
// section, table, row label, column, text, value, ci_low, ci_high, n, denom,
// threshold, pass, flag, metric, stratum, run. Long format keeps one schema for
// all tables so a spreadsheet can pivot it.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{"section", "table", "row", "column", "text", "value", "ci_low", "ci_high", "n", "denom", "threshold", "pass", "flag", "metric", "stratum", "run"}); err != nil {
		return err
	}
	num := func(p *float64) string {
		if p == nil {
			return ""
		}
		return CSVNumber(*p)
	}
	in := func(p *int) string {
		if p == nil {
			return ""
		}
		return strconv.Itoa(*p)
	}
	for _, s := range r.Sections {
		for _, t := range s.Tables {
			for _, row := range t.Rows {
				label := ""
				if len(row) > 0 {
					label = row[0].String()
				}
				for i, c := range row {
					if i >= len(t.Columns) {
						break
					}
					pass := ""
					if c.Pass != nil {
						pass = strconv.FormatBool(*c.Pass)
					}
					rec := []string{s.ID, t.ID, CSVText(label), t.Columns[i].Key, CSVText(c.Text), num(c.Value), num(c.CILow), num(c.CIHigh),
						in(c.N), in(c.Denom), c.Threshold, pass, CSVText(c.Flag), c.Metric, CSVText(c.Stratum), CSVText(c.Run)}
					if err := cw.Write(rec); err != nil {
						return err
					}
				}
			}
		}
	}
	// Provenance, as the other renderers print it (seed 000 §5): the tool,
	// the configuration and every input's sha256, as section "provenance".
	text := func(table, row, column, value string) {
		cw.Write([]string{"provenance", table, row, column, value, "", "", "", "", "", "", "", "", "", "", ""})
	}
	text("tool", r.Tool.Name, "version", r.Tool.Version)
	for _, kv := range r.Config {
		text("config", kv.Key, "value", kv.Value)
	}
	for _, in := range r.Inputs {
		text("inputs", in.Path, "format", string(in.Format))
		text("inputs", in.Path, "sha256", in.SHA256)
	}
	cw.Flush()
	return cw.Error()
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err != nil {
		return
	}
	_, e.err = fmt.Fprintf(e.w, format, args...)
}
