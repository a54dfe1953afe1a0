package cli

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"eval752/app/finding"
	"eval752/app/metrics"
)

func init() {
	Register(Command{Name: "doc-tables", Summary: "print (or --update README.md with) the rule and metric tables generated from the registries", Run: runDocTables})
}

// docTables are the README sections generated from registries, each between
// "<!-- NAME:begin -->" and "<!-- NAME:end -->" markers.
var docTables = []struct {
	name string
	gen  func() string
}{
	{"rules", RuleTable},
	{"metrics", MetricTable},
	{"metric-reference", metrics.MarkdownTable}, // docs/metrics.md
}

// RuleTable renders the rule registry as a Markdown table.
func RuleTable() string {
	var b strings.Builder
	b.WriteString("| code | severity | what it checks | source |\n|---|---|---|---|\n")
	for _, r := range finding.Rules() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.Code, r.Severity, mdCell(r.Description), mdCell(r.Source))
	}
	return b.String()
}

func mdCell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}

// UpdateDocTables replaces each marked section of doc with its generated
// table; a document holds the markers of some of the tables, at least one.
func UpdateDocTables(doc []byte) ([]byte, error) {
	found := 0
	for _, t := range docTables {
		begin := []byte("<!-- " + t.name + ":begin -->\n")
		end := []byte("<!-- " + t.name + ":end -->")
		i := bytes.Index(doc, begin)
		j := bytes.Index(doc, end)
		if i < 0 && j < 0 {
			continue
		}
		if i < 0 || j < i {
			return nil, fmt.Errorf("markers for %q are incomplete", t.name)
		}
		found++
		var out bytes.Buffer
		out.Write(doc[:i+len(begin)])
		out.WriteString(t.gen())
		out.Write(doc[j:])
		doc = out.Bytes()
	}
	if found == 0 {
		return nil, fmt.Errorf("no table markers found")
	}
	return doc, nil
}

func runDocTables(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doc-tables", flag.ContinueOnError)
	fs.SetOutput(stderr)
	update := fs.String("update", "", "rewrite the marked sections of this Markdown file in place")
	if err := fs.Parse(args); err != nil {
		return ExitCantRun
	}
	if *update == "" {
		for _, t := range docTables {
			fmt.Fprintf(stdout, "<!-- %s -->\n%s\n", t.name, t.gen())
		}
		return ExitOK
	}
	doc, err := os.ReadFile(*update)
	if err != nil {
		return cantRun(stderr, "doc-tables", err)
	}
	out, err := UpdateDocTables(doc)
	if err != nil {
		return cantRun(stderr, "doc-tables", err)
	}
	if err := WriteFileAtomic(*update, out); err != nil {
		return cantRun(stderr, "doc-tables", err)
	}
	return ExitOK
}

// MetricTable renders the metric registry (every family at its default
// cutoffs) as a Markdown table.
func MetricTable() string {
	var b strings.Builder
	b.WriteString("| metric | group | what it measures | formula | threshold | source |\n|---|---|---|---|---|---|\n")
	for _, d := range metrics.Registry() {
		th := ""
		if d.Threshold != nil {
			th = fmt.Sprintf("%s %g", d.Threshold.Op, d.Threshold.Value)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s | %s | %s |\n", d.Name, d.Group, mdCell(d.Help), mdCell(d.Formula), th, mdCell(d.Source))
	}
	return b.String()
}
