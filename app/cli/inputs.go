package cli

import (
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/finding"
	"eval752/app/model"
)

// openInputs opens every path as a dataset.Input read through ReadAt (the
// file is never read whole up front). A directory stands for the files
// under it, walked in lexical order (a seed-003 experiment folder: data/,
// eval/, runs/<id>/), as the page's folder picker gives them; entries whose
// name starts with "." (.git, .DS_Store) are left out. The returned closer
// closes them all. An unreadable path is an error: the command cannot run.
func openInputs(paths []string, format model.Format) ([]dataset.Input, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	var inputs []dataset.Input
	add := func(p string, inFolder bool) error {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		files = append(files, f)
		st, err := f.Stat()
		if err != nil {
			return err
		}
		if st.IsDir() {
			return fmt.Errorf("%s is a directory", p)
		}
		inputs = append(inputs, dataset.Input{Name: p, R: f, Size: st.Size(), Format: format, InFolder: inFolder})
		return nil
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err == nil && st.IsDir() {
			err = walkFolder(p, add)
		} else {
			err = add(p, false)
		}
		if err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	return inputs, closeAll, nil
}

// walkFolder gives add every regular file under dir, in lexical order,
// skipping hidden entries. A folder holding no file is an error: the user
// named it to be checked.
func walkFolder(dir string, add func(string, bool) error) error {
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir && dataset.HiddenName(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// a link to a file is that file; a link to a folder is not
			// followed (it could loop)
			if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil // the folder itself, sub-folders, devices
		}
		n++
		return add(p, true)
	})
	if err == nil && n == 0 {
		err = fmt.Errorf("%s is a folder with no file in it", dir)
	}
	return err
}

// parseFormat checks a --format value against the known formats.
func parseFormat(s string) (model.Format, error) {
	if s == "" {
		return model.FormatUnknown, nil
	}
	for _, f := range model.Formats {
		if string(f) == s {
			return f, nil
		}
	}
	return "", fmt.Errorf("unknown format %q; known formats: %v", s, model.Formats)
}

func cantRun(stderr io.Writer, cmd string, err error) int {
	if ie, ok := engine.AsInternal(err); ok {
		// the panic net: one internal.error finding, never a Go stack
		writeFindings(stderr, finding.List{ie.Finding})
		return ExitCantRun
	}
	fmt.Fprintf(stderr, "eval752 %s: %s\n", cmd, finding.Inert(err.Error()))
	return ExitCantRun
}

// limitFlags are the reading caps of dataset.Limits (zip-bomb and huge-line
// guards), for the commands that read inputs. Sizes are in MiB.
type limitFlags struct {
	entries                  int
	entryMiB, totalMiB, line int64
	ratio                    float64
	findings                 int
}

func (l *limitFlags) register(fs *flag.FlagSet) {
	d := dataset.DefaultLimits()
	fs.Float64Var(&l.ratio, "max-ratio", d.MaxRatio, "largest uncompressed/compressed ratio of a zip entry over 1 MiB (zip bomb guard)")
	fs.Int64Var(&l.entryMiB, "max-entry-mb", d.MaxEntryBytes>>20, "largest uncompressed zip entry, MiB")
	fs.Int64Var(&l.totalMiB, "max-total-mb", d.MaxTotalBytes>>20, "largest uncompressed size of all entries of a bundle, MiB")
	fs.IntVar(&l.entries, "max-entries", d.MaxEntries, "most entries of a bundle")
	fs.Int64Var(&l.line, "max-line-mb", d.MaxLineBytes>>20, "longest JSONL line (or whole JSON document), MiB")
	fs.IntVar(&l.findings, "max-findings", d.MaxFindings, "findings listed per rule code and file; the rest are counted in one \"… and N more\" finding (0: list all)")
}

func (l *limitFlags) limits() (dataset.Limits, error) {
	if l.ratio <= 0 || l.entryMiB <= 0 || l.totalMiB <= 0 || l.entries <= 0 || l.line <= 0 {
		return dataset.Limits{}, fmt.Errorf("--max-ratio, --max-entry-mb, --max-total-mb, --max-entries and --max-line-mb must be positive")
	}
	if l.findings < 0 {
		return dataset.Limits{}, fmt.Errorf("--max-findings must be 0 (list all) or positive")
	}
	return dataset.Limits{
		MaxEntries:    l.entries,
		MaxEntryBytes: l.entryMiB << 20,
		MaxTotalBytes: l.totalMiB << 20,
		MaxRatio:      l.ratio,
		MaxLineBytes:  l.line << 20,
		MaxFindings:   l.findings,
	}, nil
}
