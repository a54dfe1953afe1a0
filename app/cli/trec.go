package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"eval752/app/trec"
)

func init() {
	Register(Command{
		Name:    "trec",
		Summary: "trec_eval-compatible scoring of a TREC run against qrels",
		Run:     runTrec,
	})
}

// runTrec is `eval752 trec [-q] [-c] [-l N] [-M N] [-J] [-N N] [-m MEASURE]... QRELS RUN`.
// Output is byte-compatible with trec_eval v10 for the supported measures;
// where trec_eval aborts (duplicate docno, qrels query missing from the run
// without -c) we print file:line and exit 1 instead of a partial result.
func runTrec(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("trec", flag.ContinueOnError)
	fset.SetOutput(stderr)
	var (
		measures multiFlag
		perQuery = fset.Bool("q", false, "also print the measures of every query (qrels qids in byte order), then 'all'")
		complete = fset.Bool("c", false, "average over every qrels query; a query missing from the run scores 0")
		level    = fset.Int64("l", 1, "minimum qrels grade counted relevant")
		maxDocs  = fset.Int64("M", trec.NoMaxDocs, "keep only the first `N` docs of each ranking (-M 0 keeps none, as in trec_eval; default all)")
		judged   = fset.Bool("J", false, "drop unjudged docs before ranking (trec_eval: DO NOT USE unless you know why)")
		numDocs  = fset.Int64("N", 0, "number of docs in the collection (utility's 4th coefficient only)")
	)
	fset.Var(&measures, "m", "measure, `name[.params]` or group (official, all_trec, set); repeatable; default official")
	fset.Usage = func() { trecUsage(fset, stderr) }

	pos, err := parseInterleaved(fset, expandAttached(args))
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return ExitOK
		}
		return ExitCantRun
	}
	if len(pos) != 2 {
		fmt.Fprintf(stderr, "eval752 trec: want QRELS and RUN, got %d argument(s)\n", len(pos))
		trecUsage(fset, stderr)
		return ExitCantRun
	}
	mSet := false
	fset.Visit(func(f *flag.Flag) { mSet = mSet || f.Name == "M" })
	if mSet && *maxDocs < 0 {
		fmt.Fprintf(stderr, "eval752 trec: -M must be >= 0\n")
		return ExitCantRun
	}
	opt := trec.DefaultOptions()
	opt.Measures = measures
	opt.RelLevel = *level
	opt.MaxDocs = *maxDocs
	opt.JudgedOnly = *judged
	opt.Complete = *complete
	opt.NumDocsInColl = *numDocs
	opt.QrelsName, opt.RunName = pos[0], pos[1]

	res, err := trec.EvaluateFiles(ctx, pos[0], pos[1], opt)
	if err != nil {
		fmt.Fprintf(stderr, "eval752 trec: %v\n", err)
		var ie *trec.InputError
		var pe *fs.PathError
		switch {
		case errors.As(err, &ie):
			return ExitErrors
		case errors.As(err, &pe):
			return ExitCantRun
		case errors.Is(err, context.Canceled):
			return ExitCantRun
		}
		return ExitCantRun // bad measure or parameters
	}
	if res.QrelsHeader > 0 {
		fmt.Fprintf(stderr, "eval752 trec: note: %s:%d is a header line (qid … relevance_grade, as seed 003 §10 writes qrels.tsv); skipped — trec_eval would read it as a query \"qid\"\n", pos[0], res.QrelsHeader)
	}
	if err := res.Write(stdout, *perQuery); err != nil {
		fmt.Fprintf(stderr, "eval752 trec: %v\n", err)
		return ExitCantRun
	}
	return ExitOK
}

// expandAttached turns trec_eval's attached forms "-l2", "-M100", "-mP.10"
// into separate arguments, which the flag package needs.
func expandAttached(args []string) []string {
	out := make([]string, 0, len(args))
	for _, a := range args {
		if len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsRune("lMmN", rune(a[1])) && a[2] != '=' {
			out = append(out, a[:2], a[2:])
			continue
		}
		out = append(out, a)
	}
	return out
}

// parseInterleaved accepts flags before and after the positional arguments,
// as trec_eval's getopt_long does.
func parseInterleaved(fset *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fset.Parse(args); err != nil {
			return nil, err
		}
		rest := fset.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

func trecUsage(fset *flag.FlagSet, w io.Writer) {
	fmt.Fprintf(w, "usage: eval752 trec [-q] [-c] [-l N] [-M N] [-J] [-N N] [-m MEASURE]... QRELS RUN\n\n")
	fmt.Fprintf(w, "trec_eval v10-compatible evaluation. QRELS lines: qid iter docno rel. RUN lines: qid iter docno rank score tag\n")
	fmt.Fprintf(w, "(rank and iter are ignored; docs are ranked by score descending, ties by docno descending).\n\nflags:\n")
	fset.PrintDefaults()
	fmt.Fprintf(w, "\nmeasures (in output order; groups: official, all_trec, set):\n")
	for _, m := range trec.Measures() {
		syntax := m.Name
		if m.Params != trec.NoParams {
			def := m.Default
			if def == "" {
				def = "level=gain,..."
			}
			syntax += "." + def
		}
		help := m.Help
		if i := strings.Index(help, ". "); i > 0 {
			help = help[:i+1]
		}
		fmt.Fprintf(w, "  %-24s %s\n", m.Name, help)
		if syntax != m.Name {
			fmt.Fprintf(w, "  %-24s   e.g. -m %s\n", "", syntax)
		}
	}
	fmt.Fprintf(w, "\nexit status: 0 ok, 1 bad input (malformed line, duplicate docno, query missing from the run without -c), 2 cannot run.\n")
}
