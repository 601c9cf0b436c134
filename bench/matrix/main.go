// Command matrix times the benchmark matrix of bench/README.md on
// tensorsh's side: every case's expression through eval.Session (policy
// numpy, CPU backend), so that dtypes, fusion and plans are the ones a user
// gets. bench/matrix.sh runs it and the NumPy side in one run and prints the
// ratios.
//
// Usage:
//
//	go run ./bench/matrix -list [-dry]            # the cases, as JSON
//	go run ./bench/matrix [-dry] [-filter RE] [-runs N] [-warmup N]
//	go run ./bench/matrix -serve [-dry] [-runs N] [-warmup N]  # names on stdin
//
// Without -list it prints one JSON object per case: its name, the median
// milliseconds of its runs, and the dtype and shape of its result (or the
// error). -dry uses inputs of a few elements and one run: a check that every
// case parses and runs, not a timing.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"syscall"
	"time"

	"github.com/tensorsh/tensorsh/eval"
)

// A Result is one case's measurement.
type Result struct {
	Name string  `json:"name"`
	Ms   float64 `json:"ms,omitempty"`
	Runs int     `json:"runs,omitempty"`
	// CPUMs is the process's CPU time per timed run, over all threads:
	// what sharing the machine with other work inflates least.
	CPUMs float64 `json:"cpu_ms,omitempty"`
	// Faults is the process's page faults per timed run: memory a run
	// took fresh from the system. On the AMD EPYC guest of stops 46–50 a
	// fault costs about 11 µs, as much as a statement of 10^5 elements.
	Faults float64 `json:"faults,omitempty"`
	DType  string  `json:"dtype,omitempty"`
	Shape  []int   `json:"shape"`
	Err    string  `json:"error,omitempty"`
}

func main() {
	list := flag.Bool("list", false, "print the cases as JSON and exit")
	dry := flag.Bool("dry", false, "tiny inputs, one run per case: check, do not time")
	filter := flag.String("filter", "", "run only the cases whose name matches this regular expression")
	runs := flag.Int("runs", 5, "timed runs per case (the median is reported)")
	warmup := flag.Int("warmup", 2, "untimed runs before the timed ones")
	serve := flag.Bool("serve", false, "read case names from standard input, one a line, and answer each with its result")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the runs to this file (go tool pprof)")
	flag.Parse()
	scale := Full
	if *dry {
		scale, *runs, *warmup = Dry, 1, 0
	}
	cases, err := selectCases(Cases(scale), *filter)
	if err != nil {
		fmt.Fprintln(os.Stderr, "matrix:", err)
		os.Exit(2)
	}
	enc := json.NewEncoder(os.Stdout)
	if *list {
		if err := enc.Encode(cases); err != nil {
			fmt.Fprintln(os.Stderr, "matrix:", err)
			os.Exit(1)
		}
		return
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "matrix:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	r := newRunner()
	if *serve {
		if err := serveCases(r, cases, os.Stdin, enc, *warmup, *runs); err != nil {
			fmt.Fprintln(os.Stderr, "matrix:", err)
		}
		return
	}
	for i := range cases {
		if err := enc.Encode(r.run(&cases[i], *warmup, *runs)); err != nil {
			fmt.Fprintln(os.Stderr, "matrix:", err)
			return
		}
	}
}

// serveCases runs the case named by each line of in and writes its
// result: bench/matrix.py alternates the two sides case by case this way,
// so that both times of a ratio are taken moments apart.
func serveCases(r *runner, cases []Case, in io.Reader, enc *json.Encoder, warmup, runs int) error {
	byName := map[string]*Case{}
	for i := range cases {
		byName[cases[i].Name] = &cases[i]
	}
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		res := Result{Name: sc.Text(), Err: "no such case"}
		if c, ok := byName[sc.Text()]; ok {
			res = r.run(c, warmup, runs)
		}
		if err := enc.Encode(res); err != nil {
			return err
		}
	}
	return sc.Err()
}

func selectCases(cs []Case, filter string) ([]Case, error) {
	if filter == "" {
		return cs, nil
	}
	re, err := regexp.Compile(filter)
	if err != nil {
		return nil, fmt.Errorf("-filter: %v", err)
	}
	var out []Case
	for _, c := range cs {
		if re.MatchString(c.Name) {
			out = append(out, c)
		}
	}
	return out, nil
}

// A runner evaluates cases in one session, making a setup's inputs only
// when the setup changes.
type runner struct {
	s     *eval.Session
	setup string
}

func newRunner() *runner {
	s, err := eval.New("numpy")
	if err != nil {
		panic(err) // the policy is built in
	}
	return &runner{s: s}
}

// budget bounds the timed runs of one case: past it, the runs so far are
// enough (a 2000×2000 product on a busy machine).
const budget = 3 * time.Second

// warmTime is the least time the untimed runs of a case take (more runs
// than -warmup when they are short), and minTime the least time its timed
// runs take: after the other side's turn, a core of these virtual
// machines runs the first milliseconds of work several times slower, and
// a case of a few microseconds would otherwise be timed in them, on a
// median of 5 runs. matrix.py does the same on NumPy's side.
const (
	warmTime = 10 * time.Millisecond
	minTime  = 2 * time.Millisecond
)

// run times case c, under the pprof label case=NAME (a profile of many
// cases can then be narrowed to one: go tool pprof -tagfocus case=NAME).
func (r *runner) run(c *Case, warmup, runs int) (res Result) {
	pprof.Do(context.Background(), pprof.Labels("case", c.Name), func(context.Context) {
		res = r.run1(c, warmup, runs)
	})
	return res
}

func (r *runner) run1(c *Case, warmup, runs int) Result {
	ctx := context.Background()
	res := Result{Name: c.Name}
	if r.setup != c.Setup {
		r.s.Reset()
		r.setup = ""
		if _, err := r.s.Execute(ctx, "setup", setupSource(c)); err != nil {
			res.Err = "setup: " + err.Error()
			return res
		}
		r.setup = c.Setup
		// The setup's garbage (the float64 random values before their
		// cast) is collected now, not during the first case's runs.
		runtime.GC()
	}
	eval1 := func() (*eval.Value, error) {
		outs, err := r.s.Execute(ctx, c.Name, c.Expr)
		if err != nil {
			return nil, err
		}
		for _, o := range outs {
			if o.Value != nil {
				return o.Value, nil
			}
		}
		return nil, fmt.Errorf("%s: no value", c.Expr)
	}
	v, err := eval1()
	if err != nil {
		res.Err = err.Error()
		return res
	}
	if v.Kind != eval.TensorValue {
		res.Err = "not a tensor: " + v.Describe()
		return res
	}
	res.DType, res.Shape = v.Type.DType.String(), v.Dims()
	if res.Shape == nil {
		res.Shape = []int{}
	}
	warm := warmTime
	if runs <= 1 {
		warm = 0 // -dry
	}
	for i, t0 := 0, time.Now(); i < warmup || time.Since(t0) < warm; i++ {
		if _, err := eval1(); err != nil {
			res.Err = err.Error()
			return res
		}
		r.drop()
	}
	var ts []time.Duration
	var total time.Duration
	cpu0, faults0 := cpuTime(), pageFaults()
	for (len(ts) < runs || total < minTime && runs > 1) && (total < budget || len(ts) < 1) {
		t0 := time.Now()
		if _, err := eval1(); err != nil {
			res.Err = err.Error()
			return res
		}
		d := time.Since(t0)
		r.drop()
		ts = append(ts, d)
		total += d
	}
	res.CPUMs = float64(cpuTime()-cpu0) / 1e6 / float64(len(ts))
	res.Faults = float64(pageFaults()-faults0) / float64(len(ts))
	slices.Sort(ts)
	res.Ms, res.Runs = float64(ts[len(ts)/2])/1e6, len(ts)
	return res
}

// drop ends a run as NumPy's side (timeit) and tensorsh's :timeit do:
// the run's result is dropped before the next run, so that its memory can
// hold the next result (NumPy's allocator hands the freed block back;
// tensorsh's CPU backend recycles a result once nothing the session holds
// shares it). A result stays the session's last result until another
// replaces it: a cell whose result is a scalar does, untimed.
func (r *runner) drop() {
	_, _ = r.s.Execute(context.Background(), "drop", "0")
}

// cpuTime returns the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// pageFaults returns the page faults the process has taken that needed no
// read from disk (fresh or released memory touched).
func pageFaults() int64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return u.Minflt
}
