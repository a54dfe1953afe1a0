package trec

import (
	"fmt"
	"slices"
	"strings"
)

// ParamKind says how a measure's ".params" suffix is parsed; it mirrors the
// init procedures of trec_eval's meas_init.c.
type ParamKind int

const (
	// NoParams: the measure takes no parameters.
	NoParams ParamKind = iota
	// LongCutoffs: "5,10,20" — integer cutoffs, sorted, positive, unique;
	// one value per cutoff, named NAME_k ("P_10").
	LongCutoffs
	// DoubleCutoffs: "0.2,1.0" — float cutoffs, sorted, unique; one value
	// per cutoff, named NAME_%3.2f ("Rprec_mult_0.20").
	DoubleCutoffs
	// DoubleParams: "1.0,-1.0,0,0" — ordered float parameters of a single
	// value; named NAME_params when given ("set_F_0.5").
	DoubleParams
	// GainPairs: "1=0.5,2=3" — relevance level = gain pairs of a single
	// value; named NAME_params when given ("ndcg_1=0.5,2=3").
	GainPairs
)

// ValueKind is how a value is printed.
type ValueKind int

const (
	// Float values print as %6.4f.
	Float ValueKind = iota
	// Int values (counts) print as %ld of the truncated value.
	Int
	// String values (runid, relstring) print verbatim.
	String
)

// AvgKind is how per-query values combine into the "all" line
// (meas_avg.c / meas_acc.c).
type AvgKind int

const (
	// AvgMean: arithmetic mean over the evaluated queries (over all qrels
	// queries with -c).
	AvgMean AvgKind = iota
	// AvgSum: plain sum (num_ret, num_rel, num_rel_ret, num_nonrel_judged_ret).
	AvgSum
	// AvgGeo: exp(mean(log(max(v, 1e-5)))) — gm_map, gm_bpref.
	AvgGeo
	// AvgCount: the number of evaluated queries (num_q).
	AvgCount
	// AvgNone: no summary value (relstring) or a fixed one (runid).
	AvgNone
)

// Measure describes one trec_eval measure (one m_<name>.c file there, one
// m_<name>.go file here).
type Measure struct {
	Name string
	// Help is trec_eval's explanation, with the paper to cite where there is one.
	Help string
	// Params is the parameter syntax; Default the default parameter string
	// (empty for none).
	Params  ParamKind
	Default string
	Value   ValueKind
	Average AvgKind
	// PerQuery: printed for each query under -q. Summary: printed in the
	// "all" block.
	PerQuery bool
	Summary  bool

	calc func(q *query, in *instance, out []float64)
}

// registry is the ordered list of measures; output follows this order, as
// trec_eval's te_trec_measures[] in measures.c does.
var registry []*Measure

// register appends a measure; called from each m_*.go file's var block in
// the order given by registryOrder.
func register(m *Measure) *Measure {
	registry = append(registry, m)
	return m
}

// registryOrder is trec_eval v10's measure order (measures.c) restricted to
// the measures implemented here. Go initialises package-level variables in
// file-name order, so the order is imposed here instead of relying on it.
var registryOrder = []string{
	"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map",
	"Rprec", "bpref", "recip_rank", "iprec_at_recall", "P", "relstring",
	"recall", "infAP", "gm_bpref", "Rprec_mult", "utility", "11pt_avg",
	"binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
	"relative_P", "success", "set_P", "set_relative_P", "set_recall",
	"set_map", "set_F", "num_nonrel_judged_ret", "unj",
}

// Groups are trec_eval's measure nicknames (measures.c). rbp and rbp_resid
// are part of trec_eval's all_trec but are not implemented (their values
// depend on uninitialised memory in trec_eval v10; see SEMANTICS.md).
var Groups = map[string][]string{
	"official": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map",
		"gm_map", "Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"},
	"all_trec": registryOrder,
	"set": {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "utility",
		"set_P", "set_recall", "set_relative_P", "set_map", "set_F"},
}

var ordered []*Measure

func orderedMeasures() []*Measure {
	if ordered != nil {
		return ordered
	}
	byName := map[string]*Measure{}
	for _, m := range registry {
		byName[m.Name] = m
	}
	for _, n := range registryOrder {
		if m, ok := byName[n]; ok {
			ordered = append(ordered, m)
		} else {
			panic("trec: registryOrder names unknown measure " + n)
		}
	}
	if len(ordered) != len(registry) {
		panic("trec: a registered measure is missing from registryOrder")
	}
	return ordered
}

// Measures returns every implemented measure in output order.
func Measures() []Measure {
	ms := orderedMeasures()
	out := make([]Measure, len(ms))
	for i, m := range ms {
		out[i] = *m
		out[i].calc = nil
	}
	return out
}

// LookupMeasure returns the descriptor of a measure by its base name ("P",
// "ndcg_cut").
func LookupMeasure(name string) (Measure, bool) {
	for _, m := range orderedMeasures() {
		if m.Name == name {
			c := *m
			c.calc = nil
			return c, true
		}
	}
	return Measure{}, false
}

// instance is a measure with its parsed parameters and value slots.
type instance struct {
	m       *Measure
	names   []string // one per value
	off     int      // first value slot
	longs   []int64  // LongCutoffs
	doubles []float64
	pairs   []gainPair
}

type gainPair struct {
	level string
	gain  float64
}

// plan is the resolved list of measures of one evaluation.
type plan struct {
	insts   []*instance
	nvalues int
	columns []Column
}

// Column describes one output value.
type Column struct {
	Name     string    `json:"name"`    // as printed: "P_10", "ndcg_cut_5"
	Measure  string    `json:"measure"` // base measure name: "P"
	Kind     ValueKind `json:"kind"`
	Average  AvgKind   `json:"average"`
	PerQuery bool      `json:"per_query"`
	Summary  bool      `json:"summary"`
}

// buildPlan resolves -m specs ("official", "P.5,10", "ndcg.1=0.5") into
// measure instances, with trec_eval's rules: a spec is split at its first
// '.', nicknames mark every member, the first parameter string given for a
// name wins, and measures are computed and printed in registry order.
func buildPlan(specs []string) (*plan, error) {
	if len(specs) == 0 {
		specs = []string{"official"}
	}
	marked := map[string]bool{}
	params := map[string]string{}
	for _, spec := range specs {
		name, par, hasPar := strings.Cut(spec, ".")
		if hasPar {
			if par == "" {
				return nil, fmt.Errorf("improper measure in parameter %q", spec)
			}
			if _, seen := params[name]; !seen {
				params[name] = par
			}
		}
		if members, ok := Groups[name]; ok {
			for _, n := range members {
				marked[n] = true
			}
			continue
		}
		if _, ok := LookupMeasure(name); !ok {
			return nil, fmt.Errorf("illegal measure %q", spec)
		}
		marked[name] = true
	}
	p := &plan{}
	for _, m := range orderedMeasures() {
		if !marked[m.Name] {
			continue
		}
		in := &instance{m: m, off: p.nvalues}
		par, given := params[m.Name]
		if err := in.parse(par, given); err != nil {
			return nil, fmt.Errorf("measure %s: %v", m.Name, err)
		}
		p.insts = append(p.insts, in)
		p.nvalues += len(in.names)
		for _, n := range in.names {
			p.columns = append(p.columns, Column{Name: n, Measure: m.Name, Kind: m.Value,
				Average: m.Average, PerQuery: m.PerQuery, Summary: m.Summary})
		}
	}
	return p, nil
}

func (in *instance) parse(par string, given bool) error {
	m := in.m
	src := par
	if !given {
		src = m.Default
	}
	switch m.Params {
	case NoParams:
		in.names = []string{m.Name}
		return nil
	case LongCutoffs:
		parts := strings.Split(src, ",")
		for _, s := range parts {
			in.longs = append(in.longs, atol([]byte(s)))
		}
		slices.Sort(in.longs)
		if in.longs[0] <= 0 {
			return fmt.Errorf("cutoffs must be positive: %q", src)
		}
		for i := 1; i < len(in.longs); i++ {
			if in.longs[i] == in.longs[i-1] {
				return fmt.Errorf("duplicate cutoffs: %q", src)
			}
		}
		for _, c := range in.longs {
			in.names = append(in.names, fmt.Sprintf("%s_%d", m.Name, c))
		}
	case DoubleCutoffs:
		for _, s := range strings.Split(src, ",") {
			in.doubles = append(in.doubles, atof([]byte(s)))
		}
		slices.Sort(in.doubles)
		for i := 1; i < len(in.doubles); i++ {
			if in.doubles[i] == in.doubles[i-1] {
				return fmt.Errorf("duplicate cutoffs: %q", src)
			}
		}
		for _, c := range in.doubles {
			// append_double: snprintf into strlen(name)+10 bytes.
			n := fmt.Sprintf("%s_%3.2f", m.Name, c)
			if len(n) > len(m.Name)+9 {
				n = n[:len(m.Name)+9]
			}
			in.names = append(in.names, n)
		}
	case DoubleParams:
		for _, s := range strings.Split(src, ",") {
			in.doubles = append(in.doubles, atof([]byte(s)))
		}
		if m.Name == "utility" && len(in.doubles) != 4 {
			return fmt.Errorf("improper number of coefficients in %q (want 4)", src)
		}
		in.names = []string{m.Name}
		if given {
			in.names[0] = m.Name + "_" + par
		}
	case GainPairs:
		if given {
			if err := checkPairs(par); err != nil {
				return err
			}
			for _, kv := range strings.Split(par, ",") {
				k, v, _ := strings.Cut(kv, "=")
				in.pairs = append(in.pairs, gainPair{level: k, gain: atof([]byte(v))})
			}
		}
		in.names = []string{m.Name}
		if given {
			in.names[0] = m.Name + "_" + par
		}
	}
	return nil
}

// checkPairs applies get_param_pairs' syntax check: "level=gain" items
// separated by commas, no empty item, no doubled '='.
func checkPairs(s string) error {
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.Contains(v, "=") {
			return fmt.Errorf("malformed pair parameters in %q (want level=gain,...)", s)
		}
	}
	return nil
}
