package itemscore

import (
	"eval752/app/report"
	"fmt"
	"path"
	"slices"
	"strings"

	"eval752/app/dataset"
	"eval752/app/model"
	"eval752/app/peer"
)

// output is what one run produced for one unit, in one shape for every
// result format.
type output struct {
	retrieved []retrieved
	response  *string
	refused   *bool
	errText   string

	latency      *float64
	inTok, outTk *int
	cost         *float64
	stages       report.Values // seed 003 latency_ms per stage (without "total")
	usage        report.Values // every usage entry (tokens by kind, *_calls)
	// rare holds what most results do not have (nil then): a million
	// results.jsonl outputs wait for scoring beside the records and the
	// Set being built, 144 bytes each instead of 288
	rare *outputRare
}

// outputRare is the part of an output that most results leave empty.
type outputRare struct {
	responses []string
	verdict   string
	passed    *bool
	// toolScore is a peer tool's own reduced score of the item (tool.score)
	toolScore *float64
	// rerankEmpty: the run reranks, but this prediction's reranked list
	// is empty while its retrieved list is not (flag "rerank-empty")
	rerankEmpty bool
	reranked    bool     // the ranking is a reranked list
	first       []string // a reranking prediction's first-stage list (RERANK_* attribution)
	citations   []model.Citation
}

// noRare is the empty outputRare that x returns for an output without one
// (read only).
var noRare outputRare

// x is o's rare part for reading (empty when o has none).
func (o *output) x() *outputRare {
	if o.rare == nil {
		return &noRare
	}
	return o.rare
}

// more is o's rare part for writing, made on first use.
func (o *output) more() *outputRare {
	if o.rare == nil {
		o.rare = &outputRare{}
	}
	return o.rare
}

type retrieved struct {
	id       string
	score    float64
	hasScore bool
}

// runOut collects one run's outputs.
type runOut struct {
	name     string
	reranked bool // seed-003 predictions with reranked lists: its ranking is the reranked one
	// twinClash: another input already names a run "<name>.retrieve", so
	// this reranked run's first-stage twin is not made (a note says so)
	twinClash bool
	atoms     string // atom table path from run_config.json ("" = every atom)
	byUnit    outputs
	dupUnits  map[int]bool
	unknown   []string
	unknownOK map[string]bool
	// Capabilities decide which metrics apply to the run's missing items.
	retrieves, answers, passes bool
	refuses                    bool // gives a refused flag (an abstention signal, even without answers)
	// Where its outputs came from.
	fromResults, fromPreds bool
	// fromPeer: a run of a peer tool's log; its scope is the items its
	// log has (an item only another log has is out of its scope, not missing)
	fromPeer bool
	// dirs are the folders of the files the run's outputs came from: a
	// qrels file in a runs/<name>/ folder applies to the runs read there.
	dirs []string
	// qrelsKey names the chunk qrels files that apply to the run (see
	// scorer.assignQrels); "" = none.
	qrelsKey string
	// setCaps are the capabilities per set (Unit.Set), from the outputs
	// for that set's units: they decide which metrics apply to the set's
	// units for this run. A run that ranks atoms for b-2 but returns no
	// ranking for any v2 question gets no v2 retrieval figures (not a
	// column of zeros).
	setCaps map[string]caps
	// contextTop is config.yaml's context_top_n (0: unknown): the context
	// cut of RERANK_WRONG_ORDER and the depth of DUPLICATE_CROWDING.
	contextTop int
	// cites: some output has citations (seed 003 §7's citation figures
	// apply to the run); reportsErrors: some output has an error (its error
	// rate applies).
	cites, reportsErrors bool
	// grades are the human answer grades of the run per qid (rag.grades).
	grades map[string]gradeOf
}

// caps are what a run's outputs for one set carry.
type caps struct{ retrieves, answers, refuses bool }

// computeSetCaps fills r.setCaps from the outputs matched to units.
func (r *runOut) computeSetCaps(units []*unitSpec) {
	r.setCaps = map[string]caps{}
	for ui, o := range r.byUnit {
		if o == nil {
			continue
		}
		set := units[ui].Set
		c := r.setCaps[set]
		c.retrieves = c.retrieves || o.retrieved != nil
		c.answers = c.answers || o.response != nil || o.x().responses != nil || o.x().verdict != "" || o.x().passed != nil
		c.refuses = c.refuses || o.refused != nil
		r.setCaps[set] = c
	}
}

func (r *runOut) add(ui int, found bool, id string, o *output) {
	if o.retrieved != nil {
		r.retrieves = true
	}
	if o.response != nil || o.x().responses != nil || o.x().verdict != "" {
		r.answers = true
	}
	if o.refused != nil {
		r.refuses = true
	}
	if len(o.x().citations) > 0 {
		r.cites = true
	}
	if o.errText != "" {
		r.reportsErrors = true
	}
	if o.x().passed != nil {
		r.passes = true
		r.answers = true
	}
	if !found {
		if !r.unknownOK[id] {
			r.unknownOK[id] = true
			r.unknown = append(r.unknown, id)
		}
		return
	}
	if r.byUnit.at(ui) != nil {
		r.dupUnits[ui] = true
		return
	}
	r.byUnit.set(ui, o)
}

// outputs are a run's outputs by unit index (nil: no result): a slice, 8
// bytes a unit, where a map cost ≈ 40; Score drops each once it is scored.
type outputs []*output

// at returns unit ui's output (nil when none).
func (os outputs) at(ui int) *output {
	if ui < 0 || ui >= len(os) {
		return nil
	}
	return os[ui]
}

// set makes o unit ui's output, growing os as needed.
func (os *outputs) set(ui int, o *output) {
	if ui >= len(*os) {
		*os = append(*os, make(outputs, ui+1-len(*os))...)
	}
	(*os)[ui] = o
}

// collectRuns gathers every run of results.jsonl and seed-003 predictions,
// in first-seen order.
func collectRuns(ds *dataset.Dataset, byID map[string]int) []*runOut {
	var runs []*runOut
	get := func(name string) *runOut {
		for _, r := range runs {
			if r.name == name {
				return r
			}
		}
		r := &runOut{name: name, dupUnits: map[int]bool{}, unknownOK: map[string]bool{}}
		runs = append(runs, r)
		return r
	}
	atomPaths := map[string]string{}
	for _, b := range ds.Bundles {
		if b.RunConfig != nil && b.RunConfig.Typed {
			for _, ri := range b.RunConfig.V.Runs {
				if ri.Atoms != "" {
					atomPaths[ri.Name] = ri.Atoms
				}
			}
		}
	}
	for rec := range typedRecs(ds.Results) {
		res := &rec.V
		name := res.Run
		if name == "" {
			name = "default"
		}
		r := get(name)
		r.fromResults = true
		r.addDir(dirOf(ds.Path(rec.Loc)))
		r.atoms = atomPaths[name]
		o := &output{response: res.Response, refused: res.Refused, errText: res.Error, latency: res.LatencyMS, cost: res.CostUSD}
		if res.Responses != nil || res.Verdict != "" || res.Passed != nil {
			x := o.more()
			x.responses, x.verdict, x.passed = res.Responses, res.Verdict, res.Passed
		}
		if res.Retrieved != nil {
			o.retrieved = []retrieved{}
			for _, x := range res.Retrieved {
				rt := retrieved{id: x.ID}
				if x.Score != nil {
					rt.score, rt.hasScore = *x.Score, true
				}
				o.retrieved = append(o.retrieved, rt)
			}
		}
		if res.Usage != nil {
			in, out := res.Usage.InputTokens, res.Usage.OutputTokens
			o.inTok, o.outTk = &in, &out
			o.usage = report.Values{{Name: "input_tokens", Value: float64(in)}, {Name: "output_tokens", Value: float64(out)}}
		}
		ui, ok := byID[res.ItemID]
		r.add(ui, ok, res.ItemID, o)
	}
	// TREC run files: the run tag names the run (else the file name); the
	// rank column is ignored, the score orders (trec_eval).
	for _, rf := range ds.Runs {
		name := rf.Tag
		if name == "" {
			name = strings.TrimSuffix(path.Base(rf.Path), path.Ext(rf.Path))
		}
		r := get(name)
		r.addDir(dirOf(rf.Path))
		perQ := map[string]*output{}
		var order []string
		for _, l := range rf.Lines {
			o, ok := perQ[l.QID]
			if !ok {
				o = &output{retrieved: []retrieved{}}
				perQ[l.QID] = o
				order = append(order, l.QID)
			}
			o.retrieved = append(o.retrieved, retrieved{id: l.DocNo, score: l.Score, hasScore: true})
		}
		for _, q := range order {
			ui, ok := byID[q]
			r.add(ui, ok, q, perQ[q])
		}
	}
	// Seed-003 predictions: run name per file.
	cfgRun := map[string]string{} // dir → config.yaml run_id
	for _, c := range ds.Configs {
		if c.Typed {
			if id, ok := c.V["run_id"].(string); ok && id != "" {
				cfgRun[dirOf(ds.Path(c.Loc))] = id
			}
		}
	}
	// A prediction's ranking is its reranked list when it has one (the
	// system's final ranking, which seed 003 §6.1 scores with MRR/nDCG@10),
	// else its retrieved list. A run made only of predictions also yields
	// "<name>.retrieve", scored on the first-stage retrieved list, so the
	// rerank gain is a paired comparison; a run that also has results.jsonl
	// lines does not (the variant would miss every other item).
	type firstStage struct {
		ui  int
		ok  bool
		qid string
		o   *output
	}
	stage := map[string][]firstStage{}
	var stageOrder []string
	runName := func(path string, p *model.RAGPrediction) string {
		if p.RunID != "" {
			return p.RunID
		}
		return predRunName(path, cfgRun)
	}
	// A run reranks when at least one of its predictions has a non-empty
	// reranked list. A run without rerank often still writes
	// "reranked_chunk_ids": [] (seed 003 §6.2's shape, filled or not):
	// its ranking is then the retrieved list, not an empty one.
	reranks := map[string]bool{}
	for rec := range typedRecs(ds.Preds) {
		if len(rec.V.RerankedChunkIDs) > 0 {
			reranks[runName(ds.Path(rec.Loc), &rec.V)] = true
		}
	}
	for rec := range typedRecs(ds.Preds) {
		p := &rec.V
		name := runName(ds.Path(rec.Loc), p)
		ui, ok := byID[p.QID]
		first := predOutput(p, p.RetrievedChunkIDs, p.VectorScores)
		final := first
		if p.RerankedChunkIDs != nil && reranks[name] {
			final = predOutput(p, p.RerankedChunkIDs, p.RerankScores)
			final.more().first, final.more().reranked = p.RetrievedChunkIDs, true
			final.more().rerankEmpty = len(p.RerankedChunkIDs) == 0 && len(p.RetrievedChunkIDs) > 0
			// the run's first reranked prediction, wherever it is in the
			// file (stage[name] may already hold earlier ones without a
			// reranked list)
			if !slices.Contains(stageOrder, name) {
				stageOrder = append(stageOrder, name)
			}
		}
		r := get(name)
		r.fromPreds = true
		r.reranked = reranks[name]
		r.addDir(dirOf(ds.Path(rec.Loc)))
		r.add(ui, ok, p.QID, final)
		stage[name] = append(stage[name], firstStage{ui, ok, p.QID, first})
	}
	// Logs of other tools: one run per model / provider, one output per
	// sample id (epochs reduced), on the unit peer.Match paired it with.
	pus, pouts := peer.Match(ds.Peers)
	for _, po := range pouts {
		r := get(po.Run)
		r.fromPeer = true
		r.addDir(dirOf(po.Red.First.Path))
		s := po.Red.First
		resp := s.Output
		passed := po.Red.Passed
		o := &output{response: &resp, errText: po.Red.Error, latency: s.LatencyMS, cost: s.CostUSD, inTok: s.InTok, outTk: s.OutTok}
		o.more().passed = &passed
		if len(po.Log.Scorers) > 0 {
			if v, ok := po.Red.Scores[po.Log.Scorers[0]]; ok {
				o.more().toolScore = &v
			}
		}
		ui, ok := byID[pus[po.Unit].ID]
		r.add(ui, ok, pus[po.Unit].ID, o)
	}
	named := map[string]bool{} // runs the inputs name themselves
	for _, r := range runs {
		named[r.name] = true
	}
	for _, name := range stageOrder {
		if get(name).fromResults {
			continue
		}
		if named[name+".retrieve"] {
			get(name).twinClash = true
			continue
		}
		v := get(name + ".retrieve")
		for _, d := range get(name).dirs {
			v.addDir(d)
		}
		for _, f := range stage[name] {
			v.add(f.ui, f.ok, f.qid, f.o)
		}
	}
	return runs
}

// runConfig returns the config.yaml of run r: the first one (load order)
// in a folder the run's outputs came from, its values as text.
func runConfig(ds *dataset.Dataset, r *runOut) (string, map[string]string) {
	for _, c := range ds.Configs {
		if !c.Typed || !slices.Contains(r.dirs, dirOf(ds.Path(c.Loc))) {
			continue
		}
		m := make(map[string]string, len(c.V))
		for k, v := range c.V {
			switch x := v.(type) {
			case nil:
				m[k] = "null"
			case string:
				m[k] = x
			default:
				m[k] = fmt.Sprint(x)
			}
		}
		return ds.Path(c.Loc), m
	}
	return "", nil
}

// addDir records the folder d of a file the run's outputs came from.
func (r *runOut) addDir(d string) {
	if !slices.Contains(r.dirs, d) {
		r.dirs = append(r.dirs, d)
	}
}

// predOutput converts a prediction with the given ranking.
func predOutput(p *model.RAGPrediction, ids []string, scores []float64) *output {
	o := &output{response: p.Answer, refused: p.Refused, errText: p.Error}
	if p.Citations != nil {
		o.more().citations = p.Citations
	}
	if ids != nil {
		// an empty list is a ranking that found nothing (scored 0); no
		// list at all is a run that does not retrieve (a closed-book run,
		// seed 003 §8 ablation 1): no retrieval figures
		o.retrieved = []retrieved{}
	}
	useScores := len(scores) == len(ids) && len(ids) > 0
	for i, id := range ids {
		rt := retrieved{id: id}
		if useScores {
			rt.score, rt.hasScore = scores[i], true
		}
		o.retrieved = append(o.retrieved, rt)
	}
	if len(p.LatencyMS) > 0 {
		var total float64
		if t, ok := p.LatencyMS["total"]; ok {
			total = t
		} else {
			for _, k := range sortedKeys(p.LatencyMS) {
				total += p.LatencyMS[k]
			}
		}
		o.latency = &total
		for k, v := range p.LatencyMS {
			if k != "total" {
				o.stages.Set(k, v)
			}
		}
	}
	if len(p.Usage) > 0 {
		o.usage = report.ValuesOf(p.Usage)
		if v, ok := p.Usage["cost_usd"]; ok {
			o.cost = &v
		}
		if v, ok := firstKey(p.Usage, "llm_input_tokens", "input_tokens"); ok {
			n := int(v)
			o.inTok = &n
		}
		if v, ok := firstKey(p.Usage, "llm_output_tokens", "output_tokens"); ok {
			n := int(v)
			o.outTk = &n
		}
	}
	return o
}

func firstKey(m map[string]float64, keys ...string) (float64, bool) {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v, true
		}
	}
	return 0, false
}

func sortedKeys(m map[string]float64) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// DirOf is the folder of a record path, as runs are matched to their
// folders (RunScores.Dirs).
func DirOf(p string) string { return dirOf(p) }

// dirOf is the folder of a record path; bundle entries ("x.zip!runs/a/p.jsonl")
// use the part after "!".
func dirOf(p string) string {
	p = strings.ReplaceAll(p, "\\", "/")
	return path.Dir(p)
}

// predRunName names a predictions file's run: config.yaml's run_id in the
// same folder, else the folder name (runs/<run_id>/predictions.jsonl), else
// the file name without extension.
func predRunName(p string, cfgRun map[string]string) string {
	d := dirOf(p)
	if id, ok := cfgRun[d]; ok {
		return id
	}
	base := path.Base(strings.ReplaceAll(p, "\\", "/"))
	if i := strings.LastIndex(base, "!"); i >= 0 {
		base = base[i+1:]
	}
	if d != "." && d != "/" {
		dir := path.Base(d)
		if i := strings.LastIndex(dir, "!"); i >= 0 {
			dir = dir[i+1:]
		}
		if dir != "" && dir != "." && !strings.HasSuffix(dir, ".zip") {
			return dir
		}
	}
	return strings.TrimSuffix(base, path.Ext(base))
}

// atomsFor selects the atom records of a run's table: those whose path is
// (or ends with) the run_config path; every atom when none is named or none
// matches.
func atomsFor(ds *dataset.Dataset, p string) []model.Atom {
	var out []model.Atom
	for a := range typedRecs(ds.Atoms) {
		if p == "" || ds.Path(a.Loc) == p || strings.HasSuffix(ds.Path(a.Loc), "!"+p) || strings.HasSuffix(ds.Path(a.Loc), "/"+p) {
			out = append(out, a.V)
		}
	}
	if p != "" && len(out) == 0 {
		return atomsFor(ds, "")
	}
	return out
}
