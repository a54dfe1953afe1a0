package cli

import (
	"fmt"
	"io"
	"os"

	"eval752/app/dataset"
	"eval752/app/model"
)

// openInputs opens every path as a dataset.Input read through ReadAt (the
// file is never read whole up front). The returned closer closes them all.
// An unreadable path or a directory is an error: the command cannot run.
func openInputs(paths []string, format model.Format) ([]dataset.Input, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	var inputs []dataset.Input
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		files = append(files, f)
		st, err := f.Stat()
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		if st.IsDir() {
			closeAll()
			return nil, nil, fmt.Errorf("%s is a directory: pass the files (or the .eval752.zip) to check", p)
		}
		inputs = append(inputs, dataset.Input{Name: p, R: f, Size: st.Size(), Format: format})
	}
	return inputs, closeAll, nil
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
	fmt.Fprintf(stderr, "eval752 %s: %v\n", cmd, err)
	return ExitCantRun
}
