package engine

import (
	"context"
	"errors"
	"fmt"

	"eval752/app/audit"
	"eval752/app/dataset"
	"eval752/app/finding"
	"eval752/app/itemscore"
	"eval752/app/score"
	"eval752/app/validate"
)

// Options configure one evaluation. DefaultOptions gives the documented
// defaults (bootstrap 1000 resamples, seed 42, …).
type Options struct {
	Load     dataset.Options
	Validate validate.Options
	Items    itemscore.Options
	Score    score.Options
	Audit    audit.Options
	// CompareA and CompareB name the runs of the paired comparison; empty
	// means the first two runs found.
	CompareA, CompareB string
	// SkipScore and SkipAudit leave those parts out (validate-only callers;
	// SkipAudit also leaves seed 002's set gates out of Validate, for a
	// draft checked one category at a time).
	SkipScore, SkipAudit bool
	// SoftMemLimit gives the reading a soft memory limit
	// (runtime/debug.SetMemoryLimit) until the caller releases the output:
	// streamMemLimit for plain TREC inputs on the streaming path,
	// loadMemLimit for inputs loaded in memory. validate, score and compare
	// set it; the page's worker sets its own (workside.HeapLimit).
	SoftMemLimit bool

	// InMemory, when not nil, is called when plain TREC inputs that
	// StreamsTREC chose for the streaming path turn out, while reading,
	// to need the in-memory one (an ungrouped run, a repeated run name),
	// before dataset.Load reads them: an error it returns ends the
	// evaluation with that error. The page's worker re-checks its memory
	// budget there (EstimateInputs foresaw the streaming path).
	InMemory func() error

	// noStream reads plain TREC inputs with dataset.Load too (the
	// in-memory path), for the tests that compare the two paths.
	noStream bool

	// Piece, when not nil, is called by Evaluate as parts of the result
	// become final, so a front end can show them before the rest is
	// computed (the page's worker posts each at once): PieceValidated
	// (Inputs, Findings, Counts, PerCode, Overview, Name are set) and
	// PieceScored (Score, Compare, Many, Runs too). The audit's part is
	// the returned Result. res must not be changed by the callee.
	Piece func(piece string, res *Result)
}

// The pieces Options.Piece is called with, in this order.
const (
	PieceValidated = "validated"
	PieceScored    = "scored"
)

// DefaultOptions returns the defaults every front end starts from.
func DefaultOptions() Options {
	return Options{
		Load:     dataset.Options{Limits: dataset.DefaultLimits()},
		Validate: validate.DefaultOptions(),
		Items:    itemscore.DefaultOptions(),
		Score:    score.DefaultOptions(),
		Audit:    audit.DefaultOptions(),
	}
}

// Validation is what Validate found: the inputs as read (format, sha256,
// lines) and every validation finding, normalized and capped.
type Validation struct {
	Inputs   []dataset.InputInfo
	Findings finding.List

	ds      *dataset.Dataset // the loaded records (no TREC lines when streamed)
	stream  *streamed        // the streaming path's results, or nil
	release func()           // undoes the soft memory limit
}

// Release undoes what the evaluation set for its duration (the soft memory
// limit of Options.SoftMemLimit). Call it once the output is written.
func (v *Validation) Release() {
	if v != nil && v.release != nil {
		v.release()
		v.release = nil
	}
}

// Validate loads inputs and runs every validation rule (SPEC §3 gates 1–3,
// seed 002's gates, and the split-isolation gates of seed 003 §3.3, §4.5:
// audit.SplitIsolation). It is what `eval752 validate` prints and what the page
// counts.
//
// Plain TREC inputs — one qrels file and run files — are streamed
// (itemscore.ScoreTRECFiles, as `trec` and `score` read them): the run
// lines are never held, and the findings and counts are those of the
// in-memory path (the TREC rules get the repeated pairs from the stream;
// every other rule runs on the dataset without the TREC records, which they
// do not read). An ungrouped run or a repeated run name takes the
// in-memory path.
//
// A panic anywhere inside is recovered: err is then an *InternalError
// holding the one internal.error finding (the panic net).
func Validate(ctx context.Context, inputs []dataset.Input, opt Options, progress func(dataset.Progress)) (_ *Validation, err error) {
	defer guard(inputs, &err)
	return check(ctx, inputs, opt, progress)
}

func check(ctx context.Context, inputs []dataset.Input, opt Options, progress func(dataset.Progress)) (*Validation, error) {
	lo := opt.Load
	if progress != nil {
		lo.Progress = progress
	}
	v := &Validation{release: func() {}}
	if files, ok := trecInputs(inputs, lo.Limits); ok && !opt.noStream {
		if opt.SoftMemLimit {
			v.release = streamMemLimit(files)
		}
		st, err := streamTREC(ctx, files, lo.Limits, opt.Items, progress)
		switch {
		case err == nil:
			v.stream = newStreamed(st)
			v.ds = v.stream.ds
		case !errors.Is(err, itemscore.ErrNotStreamable):
			v.Release()
			return nil, err
		default:
			v.Release()
			if opt.InMemory != nil {
				if err := opt.InMemory(); err != nil {
					return nil, err
				}
			}
		}
	}
	if v.ds == nil {
		if opt.SoftMemLimit {
			v.release = loadMemLimit(inputs)
		}
		ds, err := dataset.Load(ctx, inputs, lo)
		if err != nil {
			v.Release()
			return nil, err
		}
		v.ds = ds
	}
	ds := v.ds
	// the rule passes after loading, told as steps done of total
	steps := int64(3)
	if !opt.SkipAudit {
		steps += 2
	}
	step := stepper("validate", steps, progress)
	step()
	all := append(finding.List{}, ds.Findings...)
	all = append(all, validate.Run(ds, opt.Validate)...)
	if v.stream != nil {
		all = append(all, v.stream.dupFindings()...)
	}
	step()
	if !opt.SkipAudit {
		all = append(all, audit.Rules(ds, opt.Audit)...)
		step()
		// split isolation (seed 003 §3.3, §4.5) is a validation gate
		// (SPEC §3): its errors make `validate` exit 1
		all = append(all, audit.SplitIsolation(ds, opt.Audit)...)
		step()
	}
	all = append(all, checkRunMetrics(ds, opt)...)
	step()
	ds.Locate(all)
	v.Inputs = ds.Inputs
	v.Findings = all.Normalize().Cap(lo.Limits.MaxFindings)
	return v, nil
}

// set is what the runs of v score: the streamed set, or itemscore.Score on
// the loaded records.
func (v *Validation) set(opt itemscore.Options) (*itemscore.Set, error) {
	if v.stream != nil {
		return v.stream.st.Set, nil
	}
	return itemscore.Score(v.ds, opt)
}

// Evaluate loads, validates, scores and audits inputs. Progress, when not
// nil, is called with the current stage; ctx cancels between stages and
// inside loading. Plain TREC inputs are streamed (see Validate).
//
// A panic anywhere inside is recovered (the panic net): err is then an
// *InternalError and res a Result holding only its internal.error finding,
// so the page shows it as it shows any finding.
func Evaluate(ctx context.Context, inputs []dataset.Input, opt Options, progress func(dataset.Progress)) (res *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = Recovered(p, inputNames(inputs))
		}
		if ie, ok := AsInternal(err); ok {
			res = internalResult(inputs, ie)
		}
	}()
	v, err := check(ctx, inputs, opt, progress)
	if err != nil {
		return nil, err
	}
	defer v.Release()
	ds, findings := v.ds, v.Findings
	res = &Result{
		Inputs:   ds.Inputs,
		Findings: findings,
		Counts:   findings.Counts(),
		PerCode:  findings.PerCode(),
		Overview: v.overview(),
		Name:     DatasetName(ds),
	}
	if res.Findings == nil {
		res.Findings = finding.List{}
	}
	if opt.Piece != nil {
		opt.Piece(PieceValidated, res)
	}
	if !opt.SkipScore {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		step := stepper("score", 4, progress)
		step()
		set, err := v.set(opt.Items)
		if err != nil {
			return nil, fmt.Errorf("scoring: %w", err)
		}
		step()
		if err := scoreInto(res, set, ds.Inputs, opt, step); err != nil {
			return nil, err
		}
		if opt.Piece != nil {
			opt.Piece(PieceScored, res)
		}
	}
	if !opt.SkipAudit {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var aprog func(done, total int)
		if progress != nil {
			progress(dataset.Progress{Stage: "audit"})
			aprog = func(done, total int) {
				progress(dataset.Progress{Stage: "audit", Done: int64(done), Total: int64(total)})
			}
		}
		rep, af := audit.AuditProgress(ds, opt.Audit, aprog)
		if rep != nil {
			rep.Inputs = ds.Inputs
			res.Audit = rep
			res.AuditFindings = append(append(finding.List{}, res.Findings...), af...).Normalize().Cap(opt.Load.Limits.MaxFindings)
		}
	}
	return res, nil
}

// stepper returns a func that tells progress, at each call, one more of
// total steps of stage done (the first call: 0 done); nil progress: a no-op.
func stepper(stage string, total int64, progress func(dataset.Progress)) func() {
	done := int64(-1)
	return func() {
		done++
		if progress != nil {
			progress(dataset.Progress{Stage: stage, Done: min(done, total), Total: total})
		}
	}
}

// scoreInto fills res's score, comparison and many-run reports from set,
// telling step after each.
func scoreInto(res *Result, set *itemscore.Set, inputs []dataset.InputInfo, opt Options, step func()) error {
	res.set, res.opt = set, opt
	for _, r := range set.Runs {
		res.Runs = append(res.Runs, r.Run)
	}
	if len(set.Runs) == 0 && len(set.Units) > 0 {
		res.Annotations = score.UnitDetails(set)
	}
	if len(set.Runs) == 0 || len(set.Units) == 0 {
		return nil
	}
	rep := score.Score(set, opt.Score)
	rep.Inputs = inputs
	res.Score = rep
	step()
	a, b := opt.CompareA, opt.CompareB
	if a == "" && b == "" && len(set.Runs) >= 2 {
		a, b = set.Runs[0].Run, set.Runs[1].Run
	}
	if a != "" && b != "" {
		cmp, err := score.Compare(set, a, b, opt.Score)
		if err != nil {
			return fmt.Errorf("comparing %s and %s: %w", a, b, err)
		}
		cmp.Inputs = inputs
		res.Compare, res.compared = cmp, [2]string{a, b}
	}
	step()
	if len(set.Runs) >= 3 {
		many, _, err := score.CompareMany(set, set.Runs[0].Run, nil, opt.Score, score.ManyOptions{TestBudget: score.DefaultTestBudget})
		if err != nil {
			return fmt.Errorf("comparing with %s: %w", set.Runs[0].Run, err)
		}
		many.Inputs = inputs
		res.Many = many
	}
	step()
	return nil
}
