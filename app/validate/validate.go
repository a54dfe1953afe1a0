// Package validate holds eval752's content rules: SPEC §3 gates 1–3 (except
// the set-design audit, which lives in package audit). Reading, JSON and
// schema problems are found by the readers; the rules here run on the typed
// records of an already-loaded dataset.Dataset and say what is wrong with
// their content — duplicate ids, an mcq answer that is not a choice, a b-2
// gold that covers a whole file, a seed-003 evidence hash that does not match
// its span.
//
// One file per rule family; every finding comes from a rule registered with
// finding.Register, so the README's rule table and the page's help are
// generated from the same descriptors the checks use.
package validate

import (
	"sort"
	"strings"

	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/model"
)

// Options tune the rules whose thresholds are targets rather than facts.
type Options struct {
	// UnanswerableMinShare is b-2 constraint 3's target: the share of
	// unanswerable annotations per split below which a warning is raised.
	UnanswerableMinShare float64
	// SelfAnnotationWords are words that, found as a token of a registered
	// annotation_source, suggest the gold came from a model or the system
	// under test rather than from third-party humans (b-2 constraint 1,
	// seed 000 §5 "禁止用被测系统自己抽取的文本当 gold").
	SelfAnnotationWords []string
}

// DefaultOptions are the seeds' values: a 15 % unanswerable share (seed 000
// §2 constraint 3) and a word list covering "self", OCR and model names.
func DefaultOptions() Options {
	return Options{
		UnanswerableMinShare: 0.15,
		SelfAnnotationWords: []string{
			"self", "ocr", "model", "models", "llm", "gpt", "claude", "gemini", "qwen",
			"llama", "deepseek", "generated", "synthetic", "auto", "automatic",
			"automated", "pseudo", "silver", "sut", "system", "pipeline", "extracted",
		},
	}
}

// Run applies every rule to ds and returns only the findings of these rules
// (the caller merges them with ds.Findings), sorted and de-duplicated.
// Records that did not decode into their typed struct (Rec.Typed false) are
// skipped: the schema check already reported them.
func Run(ds *dataset.Dataset, opt Options) finding.List {
	if ds == nil {
		return nil
	}
	def := DefaultOptions()
	if opt.UnanswerableMinShare == 0 { // zero value: the seed's target; set < 0 to disable
		opt.UnanswerableMinShare = def.UnanswerableMinShare
	}
	if opt.SelfAnnotationWords == nil {
		opt.SelfAnnotationWords = def.SelfAnnotationWords
	}
	c := &checker{ds: ds, opt: opt}
	c.checkIDs()
	c.checkTables()
	c.checkDuplicateQuestions()
	c.checkContradictions()
	c.checkItems()
	c.checkAssets()
	c.checkBundles()
	c.checkResults()
	c.checkTREC()
	c.checkB2()
	c.checkRAG()
	return c.dropSchemaDuplicates(c.out).Normalize()
}

// dropSchemaDuplicates removes a rule finding at the very value (path, line
// and non-empty JSON pointer) where the reader's schema check already
// reported a problem: one defect, one finding. A page_no of 0 is a
// schema.range finding; the rule that also knows pages are ≥ 1 stays silent.
func (c *checker) dropSchemaDuplicates(l finding.List) finding.List {
	type at struct {
		path    string
		line    int
		pointer string
	}
	schema := map[at]bool{}
	for _, f := range c.ds.Findings {
		if f.Pointer != "" && strings.HasPrefix(f.Code, "schema.") {
			schema[at{f.Path, f.Line, f.Pointer}] = true
			// a record of a JSON array file: its schema pointers start
			// with the element's index, the rules' pointers do not
			if rest, ok := strings.CutPrefix(f.Pointer, "/"); ok {
				if i := strings.IndexByte(rest, '/'); i > 0 && isIndex(rest[:i]) {
					schema[at{f.Path, f.Line, rest[i:]}] = true
				}
			}
		}
	}
	capped := &c.ds.SchemaCapped
	if len(schema) == 0 && capped.Len() == 0 {
		return l
	}
	// a schema finding the findings cap left out still counts: the same
	// findings are dropped whatever --max-findings is
	out := l[:0]
	for _, f := range l {
		if f.Pointer != "" && (schema[at{f.Path, f.Line, f.Pointer}] || capped.Has(f.Path, f.Line, f.Pointer)) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// checker carries the dataset and the findings of one Run.
type checker struct {
	ds  *dataset.Dataset
	opt Options
	out finding.List
}

func (c *checker) add(f finding.Finding) { c.out = append(c.out, f) }

func (c *checker) has(f model.Format) bool { return c.ds.Has != nil && c.ds.Has[f] }

// splitPath separates "bundle.eval752.zip!sections/a.jsonl" into the bundle
// path and the entry name; a top-level file has no bundle.
func splitPath(p string) (bundle, entry string) {
	if i := strings.Index(p, "!"); i >= 0 {
		return p[:i], p[i+1:]
	}
	return "", p
}

// loc renders "path:line" for messages that name another record.
func (c *checker) loc(l dataset.Loc) string { return c.ds.Where(l).String() }

// onceKey remembers (code, path) pairs so that a "companion file absent"
// finding is raised once per set file, not once per line.
type onceSet map[[2]string]bool

func (o onceSet) first(code, path string) bool {
	k := [2]string{code, path}
	if o[k] {
		return false
	}
	o[k] = true
	return true
}

// ownRules are the rules this package registered, in registration order.
var ownRules []*finding.Rule

func register(r finding.Rule) *finding.Rule {
	p := finding.Register(r)
	ownRules = append(ownRules, p)
	return p
}

// Rules returns the descriptors of every rule Run can report, ordered by
// family then code (the lead's rule table covers all packages through
// finding.Rules; this is the validate package's share).
func Rules() []finding.Rule {
	out := make([]finding.Rule, len(ownRules))
	for i, r := range ownRules {
		out[i] = *r
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Family != out[j].Family {
			return out[i].Family < out[j].Family
		}
		return out[i].Code < out[j].Code
	})
	return out
}

func isIndex(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
