package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"eval752/app/finding"
)

// OutKind is what a command writes at OUT.
type OutKind int

const (
	OutFile   OutKind = iota // one file (results, demo)
	OutFolder                // a folder it fills (export-static)
)

// CheckOut refuses an OUT whose writing would destroy something the user
// gave or the command reads. sources are the command's inputs (files or
// folders: the PATHs of `results`, the --dir of `export-static`). OUT is
// refused when it is one of them (same clean absolute path, same path once
// symbolic links are resolved, or os.SameFile: a hard link), lies inside one
// of them, or contains one of them; when it exists as the other kind (a
// folder where a file is written, or the reverse: never replaced, even with
// --force); and, without force, when it is an existing file, a symbolic
// link (even one to nothing) or a folder that is not empty. The error is one line, fit to print.
func CheckOut(out string, kind OutKind, sources []string, force bool) error {
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	realOut := realPath(absOut)
	ost, oerr := os.Stat(out)
	for _, src := range sources {
		absSrc, err := filepath.Abs(src)
		if err != nil {
			return err
		}
		realSrc := realPath(absSrc)
		same := absOut == absSrc || realOut == realSrc
		if !same && oerr == nil {
			if sst, err := os.Stat(src); err == nil && os.SameFile(ost, sst) {
				same = true
			}
		}
		switch {
		case same:
			return outErr("OUT %s is the input %s; it is never written over", out, src)
		case inside(realOut, realSrc) || inside(absOut, absSrc):
			return outErr("OUT %s is inside the input folder %s; write it elsewhere", out, src)
		case inside(realSrc, realOut) || inside(absSrc, absOut):
			return outErr("OUT %s contains the input %s; write it elsewhere", out, src)
		}
	}
	if oerr != nil {
		if errors.Is(oerr, os.ErrNotExist) {
			// a symbolic link to nothing is still an entry the user made:
			// replaced (the link itself, never its target) only with force
			if lst, err := os.Lstat(out); err == nil && lst.Mode()&os.ModeSymlink != 0 && !force {
				return outErr("OUT %s is a symbolic link to a path that does not exist; give --force to replace the link", out)
			}
			return nil
		}
		return outErr("OUT %s: %v", out, oerr)
	}
	switch {
	case kind == OutFile && ost.IsDir():
		return outErr("OUT %s is a folder; this command writes a file (name the file to write)", out)
	case kind == OutFolder && !ost.IsDir():
		return outErr("OUT %s is a file; this command writes a folder", out)
	case force:
		return nil
	case kind == OutFile:
		return outErr("OUT %s exists; give --force to replace it", out)
	}
	empty, err := emptyDir(out)
	if err != nil {
		return outErr("OUT %s: %v", out, err)
	}
	if !empty {
		return outErr("OUT %s is a folder that is not empty; give --force to replace it", out)
	}
	return nil
}

func outErr(format string, args ...any) error {
	return errors.New(finding.Inert(fmt.Sprintf(format, args...)))
}

// realPath is p (absolute) with its symbolic links resolved; the part that
// does not exist yet is kept as written.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	dir, base := filepath.Split(p)
	dir = filepath.Clean(dir)
	if dir == p || base == "" {
		return p
	}
	return filepath.Join(realPath(dir), base)
}

// inside reports whether p lies strictly below dir (both clean and absolute).
func inside(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func emptyDir(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, err
	}
	defer f.Close()
	names, err := f.Readdirnames(1)
	if len(names) > 0 {
		return false, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return false, err
	}
	return true, nil
}

// WriteFileAtomic writes data to a temporary file beside path and renames
// it over path, so a failure never leaves half a file where the user expects
// one; the temporary file is removed on failure.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op after a successful rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// ReplaceDir fills a temporary folder beside out with fill and then puts it
// in out's place: out is left as it was when fill fails, and an existing out
// (CheckOut has allowed it) is removed only once the new one is in place.
func ReplaceDir(out string, fill func(tmp string) error) error {
	out = filepath.Clean(out)
	parent, base := filepath.Dir(out), filepath.Base(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := fill(tmp); err != nil {
		return err
	}
	var old string
	if st, err := os.Lstat(out); err == nil {
		if !st.IsDir() {
			return outErr("OUT %s is not a folder", out)
		}
		old = tmp + ".old"
		if err := os.Rename(out, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, out); err != nil {
		if old != "" {
			os.Rename(old, out)
		}
		return err
	}
	ok = true
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}
