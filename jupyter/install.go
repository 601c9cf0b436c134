package jupyter

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// A KernelSpec is the kernel.json that tells Jupyter how to start a
// kernel.
type KernelSpec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env"`
	Metadata      map[string]any    `json:"metadata"`
}

// validName is what Jupyter accepts as a kernel name.
var validName = regexp.MustCompile(`^[A-Za-z0-9._-]+$`)

// InstallKernelSpec writes spec as <kernelsDir>/<name>/kernel.json with
// the tensorsh logos and the language's CodeMirror mode (kernel.js) beside it, replacing an earlier install, and returns
// the directory. Jupyter matches kernel names without regard to case, so
// name is lower-cased.
func InstallKernelSpec(kernelsDir, name string, spec KernelSpec) (string, error) {
	if !validName.MatchString(name) {
		return "", fmt.Errorf("invalid kernel name %q (use letters, digits, '.', '_' and '-')", name)
	}
	dir := filepath.Join(kernelsDir, strings.ToLower(name))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if spec.Env == nil {
		spec.Env = map[string]string{}
	}
	if spec.Metadata == nil {
		spec.Metadata = map[string]any{}
	}
	js, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", err
	}
	files := map[string][]byte{
		"kernel.json":    append(js, '\n'),
		"logo-32x32.png": Logo(32),
		"logo-64x64.png": Logo(64),
		"logo-svg.svg":   []byte(logoSVG),
		"kernel.js":      KernelJS(),
	}
	for f, data := range files {
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// UninstallKernelSpec removes <kernelsDir>/<name> if it holds a tensorsh
// kernel spec. It reports whether there was one; a directory that holds
// another language's kernel is left alone, with an error.
func UninstallKernelSpec(kernelsDir, name string) (bool, error) {
	if !validName.MatchString(name) {
		return false, fmt.Errorf("invalid kernel name %q", name)
	}
	dir := filepath.Join(kernelsDir, strings.ToLower(name))
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var spec KernelSpec
	if err := json.Unmarshal(data, &spec); err != nil || spec.Language != LanguageName {
		return false, fmt.Errorf("%s is not a tensorsh kernel; not removing it", dir)
	}
	return true, os.RemoveAll(dir)
}

// UserKernelsDir returns the user's kernelspec directory, as jupyter_core
// computes it: $JUPYTER_DATA_DIR/kernels, else
// $XDG_DATA_HOME/jupyter/kernels, else ~/.local/share/jupyter/kernels.
func UserKernelsDir() (string, error) {
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "kernels"), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jupyter", "kernels"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "jupyter", "kernels"), nil
}

// PrefixKernelsDir returns <prefix>/share/jupyter/kernels.
func PrefixKernelsDir(prefix string) string {
	return filepath.Join(prefix, "share", "jupyter", "kernels")
}

// SysPrefix returns the prefix of the active Python environment: the
// active virtualenv or conda environment, else python3's sys.prefix.
func SysPrefix() (string, error) {
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if d := os.Getenv(v); d != "" {
			return d, nil
		}
	}
	out, err := exec.Command("python3", "-c", "import sys; print(sys.prefix)").Output()
	if err != nil {
		return "", fmt.Errorf("--sys-prefix: no VIRTUAL_ENV or CONDA_PREFIX, and python3 failed: %v", err)
	}
	return strings.TrimSpace(string(out)), nil
}

// systemKernelsDirs are the system-wide kernelspec directories Jupyter
// searches on Unix.
var systemKernelsDirs = []string{"/usr/local/share/jupyter/kernels", "/usr/share/jupyter/kernels"}

// The logo: a 3×3 tensor of cells in the blue tensorsh uses for dtypes,
// one of them in the orange that marks weak types.
var (
	logoBlue   = color.NRGBA{0x1f, 0x5f, 0xa8, 0xff}
	logoOrange = color.NRGBA{0xc2, 0x41, 0x0c, 0xff}
)

const logoSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64">
<title>tensorsh</title>
<g fill="#1f5fa8">
<rect x="4" y="4" width="16" height="16" rx="3"/><rect x="24" y="4" width="16" height="16" rx="3"/><rect x="44" y="4" width="16" height="16" rx="3"/>
<rect x="4" y="24" width="16" height="16" rx="3"/><rect x="24" y="24" width="16" height="16" rx="3"/>
<rect x="4" y="44" width="16" height="16" rx="3"/><rect x="24" y="44" width="16" height="16" rx="3"/><rect x="44" y="44" width="16" height="16" rx="3"/>
</g>
<rect x="44" y="24" width="16" height="16" rx="3" fill="#c2410c"/>
</svg>
`

// Logo returns the tensorsh logo as a size×size PNG: the picture of
// logoSVG, drawn at that size.
func Logo(size int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	// In units of 1/64 of the image, as in logoSVG.
	unit := float64(size) / 64
	for row := 0; row < 3; row++ {
		for col := 0; col < 3; col++ {
			c := logoBlue
			if row == 1 && col == 2 {
				c = logoOrange
			}
			x0, y0 := 4+20*float64(col), 4+20*float64(row)
			fillRoundRect(img, x0*unit, y0*unit, 16*unit, 3*unit, c)
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img) // writing to memory cannot fail
	return b.Bytes()
}

// fillRoundRect fills the square at (x, y) of side s with corner radius
// r, antialiased by 4×4 supersampling.
func fillRoundRect(img *image.NRGBA, x, y, s, r float64, c color.NRGBA) {
	inside := func(px, py float64) bool {
		cx := clamp(px, x+r, x+s-r)
		cy := clamp(py, y+r, y+s-r)
		dx, dy := px-cx, py-cy
		return px >= x && px <= x+s && py >= y && py <= y+s && dx*dx+dy*dy <= r*r
	}
	b := img.Bounds()
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			n := 0
			for i := 0; i < 4; i++ {
				for j := 0; j < 4; j++ {
					if inside(float64(px)+(float64(i)+0.5)/4, float64(py)+(float64(j)+0.5)/4) {
						n++
					}
				}
			}
			if n > 0 {
				cc := c
				cc.A = uint8(int(c.A) * n / 16)
				img.SetNRGBA(px, py, cc)
			}
		}
	}
}

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}
