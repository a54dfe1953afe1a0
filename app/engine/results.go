package engine

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"eval752/app/audit"
	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/report"
	"eval752/app/version"
)

// ResultsDir is the folder every file of a results bundle sits in, so that
// unpacking it never scatters files.
const ResultsDir = "eval752-results/"

// resultsTime is every entry's modification time: fixed, so the same inputs
// and options give the same bytes.
var resultsTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// ResultsFile is one file of a results bundle.
type ResultsFile struct {
	Name string // inside ResultsDir: "score.json"
	Data []byte
	What string // one line for the bundle's README and manifest
}

// ResultsManifest is the bundle's manifest.json: the tool, what was read
// (every input with its sha256, seed 000 §5), the validation counts, the
// runs and the compared pair, and each file of the bundle with its sha256.
type ResultsManifest struct {
	Kind   string              `json:"kind"` // "eval752.results"
	Tool   report.Tool         `json:"tool"`
	Inputs []dataset.InputInfo `json:"inputs"`
	Counts finding.Counts      `json:"counts"`
	// AuditCounts count the audit's findings (validation's plus its own:
	// refusal audit, leakage), when there is an audit.
	AuditCounts *finding.Counts `json:"audit_counts,omitempty"`
	Runs        []string        `json:"runs"`
	Compare     []string        `json:"compare,omitempty"` // [A, B] of compare.*
	Files       []ResultsEntry  `json:"files"`
}

// ResultsEntry lists one file of the bundle.
type ResultsEntry struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	What   string `json:"what"`
}

// ResultsFiles renders every report of r in every format the command line
// prints it, byte for byte: findings.json is `eval752 validate --json`,
// score.json `score --json`, compare.json `compare --json A B` (the pair
// r.Compare holds), audit.json `audit --json`, and so on. A report r does
// not have (nothing to score, one run, nothing to audit) is left out.
func ResultsFiles(r *Result) ([]ResultsFile, error) {
	type part struct {
		name, what string
		write      func(io.Writer) error
	}
	parts := []part{
		{"findings.json", "validation: inputs, findings, counts (= eval752 validate --json)", func(w io.Writer) error { return WriteValidateJSON(w, r.Inputs, r.Findings) }},
		{"findings.csv", "validation findings, one row each", func(w io.Writer) error { return WriteFindingsCSV(w, r.Findings) }},
	}
	if r.Overview != nil {
		parts = append(parts, part{"overview.md", "what was loaded: counts per format, split, modality, type", r.Overview.WriteMarkdown})
	}
	if r.Score != nil {
		parts = append(parts,
			part{"score.json", "the score report with per-item details (= eval752 score --json)", r.Score.WriteJSON},
			part{"score.md", "the score report (= eval752 score --md)", r.Score.WriteMarkdown},
			part{"score.csv", "every score table, long format (= eval752 score --csv)", r.Score.WriteCSV})
	}
	if r.Compare != nil {
		parts = append(parts,
			part{"compare.json", "the compare report with per-item details (= eval752 compare A B --json)", r.Compare.WriteJSON},
			part{"compare.md", "the compare report (= eval752 compare A B --md)", r.Compare.WriteMarkdown},
			part{"compare.csv", "every comparison table, long format (the page's Comparison CSV)", r.Compare.WriteCSV})
	}
	if r.Many != nil {
		parts = append(parts,
			part{"many.json", "every run against the first, Holm-adjusted (= eval752 compare --baseline FIRST --json)", r.Many.WriteJSON},
			part{"many.md", "every run against the first (= eval752 compare --baseline FIRST --md)", r.Many.WriteMarkdown},
			part{"many.tex", "the comparison table(s) as LaTeX (= eval752 compare --baseline FIRST --latex)", func(w io.Writer) error { return r.Many.WriteLaTeX(w, "many.table", "ablation.table") }})
	}
	if r.set != nil {
		if recs := itemscore.ErrorRecords(r.set); len(recs) > 0 {
			parts = append(parts, part{"errors.jsonl", "every item's seed 003 §9 error codes, one record per run, question and code (derived by eval752 or reviewed in the run's errors.jsonl)", func(w io.Writer) error {
				enc := json.NewEncoder(w)
				enc.SetEscapeHTML(false)
				for _, e := range recs {
					if err := enc.Encode(e); err != nil {
						return err
					}
				}
				return nil
			}})
		}
	}
	if r.Audit != nil {
		parts = append(parts,
			part{"audit.json", "the set-design audit and its findings (= eval752 audit --json)", func(w io.Writer) error { return audit.WriteJSON(w, r.Audit, r.AuditFindings) }},
			part{"audit.md", "the set-design audit (= eval752 audit --md)", func(w io.Writer) error { return audit.WriteMarkdown(w, r.Audit, r.AuditFindings) }},
			part{"audit.csv", "every audit table, long format (= eval752 audit --csv)", r.Audit.WriteCSV})
	}
	out := make([]ResultsFile, 0, len(parts))
	for _, p := range parts {
		var b bytes.Buffer
		if err := p.write(&b); err != nil {
			return nil, fmt.Errorf("%s: %w", p.name, err)
		}
		out = append(out, ResultsFile{Name: p.name, Data: b.Bytes(), What: p.what})
	}
	return out, nil
}

// WriteResultsZip writes the results bundle of r: ResultsFiles plus a
// manifest.json and a README.md that list them with their sha256, all in
// ResultsDir. The bytes depend on r only.
func WriteResultsZip(w io.Writer, r *Result) error {
	files, err := ResultsFiles(r)
	if err != nil {
		return err
	}
	m := ResultsManifest{
		Kind:   "eval752.results",
		Tool:   report.Tool{Name: version.Name, Version: version.Version},
		Inputs: r.Inputs,
		Counts: r.Counts,
		Runs:   r.Runs,
		Files:  []ResultsEntry{},
	}
	if m.Inputs == nil {
		m.Inputs = []dataset.InputInfo{}
	}
	if m.Runs == nil {
		m.Runs = []string{}
	}
	if a, b, ok := r.ComparedRuns(); ok {
		m.Compare = []string{a, b}
	}
	if r.Audit != nil {
		c := r.AuditFindings.Counts()
		m.AuditCounts = &c
	}
	entry := func(f ResultsFile) ResultsEntry {
		sum := sha256.Sum256(f.Data)
		return ResultsEntry{Path: f.Name, SHA256: hex.EncodeToString(sum[:]), Bytes: len(f.Data), What: f.What}
	}
	for _, f := range files {
		m.Files = append(m.Files, entry(f))
	}
	// README.md lists the report files; the manifest lists README.md too
	// (every file but itself)
	readme := ResultsFile{Name: "README.md", Data: resultsReadme(m), What: "what this bundle holds, with each report file's sha256"}
	m.Files = append([]ResultsEntry{entry(readme)}, m.Files...)
	var mb bytes.Buffer
	enc := json.NewEncoder(&mb)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(m); err != nil {
		return err
	}
	files = append([]ResultsFile{readme, {Name: "manifest.json", Data: mb.Bytes()}}, files...)

	zw := zip.NewWriter(w)
	for _, f := range files {
		fw, err := zw.CreateHeader(&zip.FileHeader{Name: ResultsDir + f.Name, Method: zip.Deflate, Modified: resultsTime})
		if err != nil {
			return err
		}
		if _, err := fw.Write(f.Data); err != nil {
			return err
		}
	}
	return zw.Close()
}

func resultsReadme(m ResultsManifest) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# eval752 results\n\nMade by %s %s from %d input file(s); validation: %d error(s), %d warning(s), %d info.\n",
		m.Tool.Name, m.Tool.Version, len(m.Inputs), m.Counts.Error, m.Counts.Warning, m.Counts.Info)
	if a := m.AuditCounts; a != nil {
		fmt.Fprintf(&b, "Set-design audit: %d error(s), %d warning(s), %d info.\n", a.Error, a.Warning, a.Info)
	}
	if len(m.Runs) > 0 {
		fmt.Fprintf(&b, "Runs: %s.", finding.Inert(strings.Join(m.Runs, ", ")))
		if len(m.Compare) == 2 {
			fmt.Fprintf(&b, " Compared: %s (A) vs %s (B).", finding.Inert(m.Compare[0]), finding.Inert(m.Compare[1]))
		}
		b.WriteString("\n")
	}
	b.WriteString("\n| file | what | sha256 |\n|---|---|---|\n")
	for _, f := range m.Files {
		fmt.Fprintf(&b, "| `%s` | %s | `%s` |\n", f.Path, f.What, f.SHA256)
	}
	b.WriteString("\nmanifest.json lists these files, this README and every input with its sha256.\n")
	return []byte(b.String())
}

// WriteFindingsCSV writes findings as CSV: a header, then one row each
// (severity, code, path, line, pointer, message, hint).
func WriteFindingsCSV(w io.Writer, fs finding.List) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"severity", "code", "path", "line", "pointer", "message", "hint"})
	for _, f := range fs {
		cw.Write(append([]string{f.Severity.String(), f.Code, report.CSVText(f.Path), strconv.Itoa(f.Line)}, report.CSVTexts(f.Pointer, f.Message, f.Hint)...))
	}
	cw.Flush()
	return cw.Error()
}
