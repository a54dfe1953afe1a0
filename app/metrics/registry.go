package metrics

import (
	"fmt"
	"strconv"
	"strings"
)

// Cutoff says whether a family takes an "@k" parameter.
type Cutoff int

const (
	NoCutoff       Cutoff = iota // "map"
	RequiresCutoff               // "ndcg@10"
	OptionalCutoff               // "mrr" and "mrr@10"
)

// Family is one metric family: the descriptor template of every instance
// ("ndcg@1", "ndcg@10", …), its thresholds per cutoff, and — for retrieval
// and safety metrics — the per-item computation over a canonical ranking.
// Answer, refusal, judge and cost metrics are computed by package answer /
// itemscore; their families only describe them.
type Family struct {
	Name           string
	Group          Group
	Cutoff         Cutoff
	Help           string
	Formula        string
	Source         string
	HigherIsBetter bool
	Binary         bool
	// Thresholds maps a cutoff (0 for families without one) to its target.
	Thresholds map[int]Threshold
	// RerankThresholds are seed 003 §7's targets of a reranked ranking
	// (Descriptor.RerankThreshold).
	RerankThresholds map[int]Threshold
	// Compute is the per-item value at cutoff k (k = 0: whole ranking).
	// Nil for families computed elsewhere.
	Compute func(q *Query, k int) float64
}

// DefaultCutoffs are the k the reports show: every k a seed names a
// threshold for (5, 10, 20, 50) plus 1.
var DefaultCutoffs = []int{1, 5, 10, 20, 50}

// families is THE ordered registry: reports, the README and the page list
// metrics in this order. Each entry lives in its own file.
var families = []*Family{
	&recallFamily, &hitFamily, &completeHitFamily, &groupRecallFamily,
	&mrrFamily, &ndcgFamily, &precisionFamily, &mapFamily, &rprecFamily, &bprefFamily, &judgedFamily,
	&falseRecallFamily, &temporalFamily, &holderFamily,
	&answerCorrectFamily, &toolScoreFamily, &answerExactFamily, &answerAliasFamily, &answerSubstringFamily, &answerBigramFamily,
	&answerMCQPartialFamily, &answerNumericFamily, &codePassedFamily,
	&citationPrecisionFamily, &citationRecallFamily, &completeSuccessFamily, &expertPassFamily, &faithfulnessFamily, &noEvidenceFamily, &systemErrorFamily,
	&judgeAWinFamily, &judgeBWinFamily, &judgeTieFamily, &judgeAgreeFamily,
	&refusalDetectedFamily, &refusalTPFamily, &refusalFPFamily, &refusalFNFamily,
	&refusalPrecisionFamily, &refusalRecallFamily, &refusalF1Family,
	&latencyFamily, &inputTokensFamily, &outputTokensFamily, &costFamily,
	&stageLatencyFamily, &usageFamily, &callsFamily, &costPer1000Family,
}

// Families returns the ordered registry of metric families.
func Families() []Family {
	out := make([]Family, len(families))
	for i, f := range families {
		out[i] = *f
	}
	return out
}

// Registry returns one descriptor per family and default cutoff (families
// with an optional cutoff also appear without one), in registry order. The
// README's metric table and the page's help are generated from it.
func Registry() []Descriptor {
	var out []Descriptor
	for _, f := range families {
		switch f.Cutoff {
		case NoCutoff:
			out = append(out, f.Bind(0))
		case OptionalCutoff:
			out = append(out, f.Bind(0))
			fallthrough
		case RequiresCutoff:
			for _, k := range DefaultCutoffs {
				out = append(out, f.Bind(k))
			}
		}
	}
	return out
}

// Bind returns the descriptor of the instance at cutoff k (0 = none).
func (f *Family) Bind(k int) Descriptor {
	d := Descriptor{
		Name: f.Name, Family: f.Name, Group: f.Group, K: k,
		Help: f.Help, Formula: f.Formula, Source: f.Source,
		HigherIsBetter: f.HigherIsBetter, Binary: f.Binary,
	}
	if k > 0 {
		d.Name = f.Name + "@" + strconv.Itoa(k)
	}
	if t, ok := f.Thresholds[k]; ok {
		t := t
		d.Threshold = &t
	}
	if t, ok := f.RerankThresholds[k]; ok {
		t := t
		d.RerankThreshold = &t
	}
	return d
}

// LookupFamily returns the family named name.
func LookupFamily(name string) (*Family, bool) {
	for _, f := range families {
		if f.Name == name {
			return f, true
		}
	}
	return nil, false
}

// Parse turns a metric spec such as "ndcg@10", "mrr", "mrr@10" or
// "answer.exact" into its descriptor. The cutoff must be a positive
// integer; a family without cutoffs rejects one and a family that needs one
// rejects its bare name.
func Parse(spec string) (Descriptor, error) {
	name, kText, hasK := strings.Cut(strings.TrimSpace(spec), "@")
	f, ok := LookupFamily(name)
	if !ok {
		return Descriptor{}, fmt.Errorf("unknown metric %q", spec)
	}
	if !hasK {
		if f.Cutoff == RequiresCutoff {
			return Descriptor{}, fmt.Errorf("metric %q needs a cutoff, e.g. %s@10", spec, name)
		}
		return f.Bind(0), nil
	}
	if f.Cutoff == NoCutoff {
		return Descriptor{}, fmt.Errorf("metric %q takes no cutoff", name)
	}
	k, err := strconv.Atoi(kText)
	if err != nil || k <= 0 || strconv.Itoa(k) != kText {
		return Descriptor{}, fmt.Errorf("metric %q: cutoff must be a positive integer", spec)
	}
	return f.Bind(k), nil
}

// Compute evaluates the retrieval or safety metric d on q. ok is false for
// metrics that are not computed from a ranking.
func Compute(d Descriptor, q *Query) (v float64, ok bool) {
	f, found := LookupFamily(d.Family)
	if !found || f.Compute == nil {
		return 0, false
	}
	return f.Compute(q, d.K), true
}

// th builds a threshold.
func th(op string, v float64, src string) Threshold { return Threshold{Op: op, Value: v, Source: src} }

// initial and rerank are seed 003 §7's first-stage (初召回) and rerank (重排)
// targets.
func initial(v float64, src string) Threshold {
	return Threshold{Op: ">=", Value: v, Source: src, Stage: "initial"}
}

func rerank(v float64, src string) Threshold {
	return Threshold{Op: ">=", Value: v, Source: src, Stage: "rerank"}
}
