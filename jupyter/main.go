package jupyter

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Config tells [Main] how to make engines and how to start the kernel.
type Config struct {
	// NewEngine returns the engine a kernel serves; policy is the
	// --policy flag ("" for the default).
	NewEngine func(policy string) (Engine, error)
	// Command is the command line that runs Main, written into
	// kernel.json before "--connection-file"; empty means
	// [os.Executable, "kernel"].
	Command []string
	// Env is written into kernel.json's env.
	Env map[string]string
	// Stdout and Stderr default to os.Stdout and os.Stderr. The kernel
	// itself logs to Stderr and never writes to Stdout.
	Stdout, Stderr io.Writer
}

const usage = `usage:
  tensorsh kernel --connection-file FILE [--policy NAME]
        serve Jupyter (this is what kernel.json runs)
  tensorsh kernel install [--user | --sys-prefix | --prefix DIR] [--name NAME]
        [--display-name TEXT] [--policy NAME]
        write the kernelspec (default --user: ~/.local/share/jupyter/kernels)
  tensorsh kernel uninstall [--user | --sys-prefix | --prefix DIR] [--name NAME]
        remove it (default: from every place Jupyter looks)
`

// Main runs the kernel command line (the arguments after "tensorsh
// kernel") and returns the exit status.
func Main(args []string, cfg Config) int {
	if cfg.Stdout == nil {
		cfg.Stdout = os.Stdout
	}
	if cfg.Stderr == nil {
		cfg.Stderr = os.Stderr
	}
	if len(args) > 0 {
		switch args[0] {
		case "install":
			return install(args[1:], cfg)
		case "uninstall":
			return uninstall(args[1:], cfg)
		case "help", "-h", "-help", "--help":
			fmt.Fprint(cfg.Stdout, usage)
			return 0
		}
	}
	fs := flag.NewFlagSet("tensorsh kernel", flag.ContinueOnError)
	fs.SetOutput(cfg.Stderr)
	fs.Usage = func() { fmt.Fprint(cfg.Stderr, usage) }
	file := fs.String("connection-file", "", "the connection file Jupyter wrote")
	fs.StringVar(file, "f", "", "same as --connection-file (as ipykernel)")
	policy := fs.String("policy", "", "the promotion policy to start with")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *file == "" || fs.NArg() > 0 {
		fmt.Fprint(cfg.Stderr, usage)
		return 2
	}
	return serve(*file, *policy, cfg)
}

// serve runs a kernel until a shutdown request, SIGTERM, or the death of
// the client that started it.
func serve(file, policy string, cfg Config) int {
	logger := log.New(cfg.Stderr, "tensorsh kernel: ", log.LstdFlags)
	fail := func(err error) int {
		logger.Print(err)
		return 1
	}
	conn, err := ReadConnectionFile(file)
	if err != nil {
		return fail(err)
	}
	engine, err := cfg.NewEngine(policy)
	if err != nil {
		return fail(err)
	}
	k, err := NewKernel(conn, engine, Options{Log: logger, HistoryFile: DefaultHistoryFile()})
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	// SIGINT interrupts the running cell (interrupt_mode "signal", or a
	// Ctrl-C in the terminal that started the client); it never kills
	// the kernel.
	sigint := make(chan os.Signal, 1)
	signal.Notify(sigint, os.Interrupt)
	defer signal.Stop(sigint)
	go func() {
		for range sigint {
			k.Interrupt()
		}
	}()
	ctx = watchParent(ctx, logger)
	restart, err := k.Run(ctx)
	if err != nil && ctx.Err() == nil {
		return fail(err)
	}
	if restart {
		logger.Print("shut down for a restart")
	}
	return 0
}

// watchParent returns a context that is done when the process that
// started the kernel (JPY_PARENT_PID, set by jupyter_client) is gone, so a
// kernel never outlives its client, as ipykernel's ParentPoller.
func watchParent(ctx context.Context, logger *log.Logger) context.Context {
	pid, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	if err != nil || pid <= 1 || pid != os.Getppid() {
		return ctx
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != pid {
					logger.Printf("parent process %d is gone; exiting", pid)
					cancel()
					return
				}
			}
		}
	}()
	return ctx
}

// placeFlags are the flags that choose where kernelspecs live.
type placeFlags struct {
	user, sysPrefix bool
	prefix, name    string
}

func (p *placeFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&p.user, "user", false, "the user's kernelspec directory")
	fs.BoolVar(&p.sysPrefix, "sys-prefix", false, "the active Python environment's share/jupyter/kernels")
	fs.StringVar(&p.prefix, "prefix", "", "DIR/share/jupyter/kernels")
	fs.StringVar(&p.name, "name", LanguageName, "the kernel's name")
}

// dir returns the chosen kernels directory, or "" when none was chosen.
func (p *placeFlags) dir() (string, error) {
	n := 0
	for _, b := range []bool{p.user, p.sysPrefix, p.prefix != ""} {
		if b {
			n++
		}
	}
	switch {
	case n > 1:
		return "", fmt.Errorf("--user, --sys-prefix and --prefix exclude each other")
	case p.user:
		return UserKernelsDir()
	case p.sysPrefix:
		prefix, err := SysPrefix()
		if err != nil {
			return "", err
		}
		return PrefixKernelsDir(prefix), nil
	case p.prefix != "":
		abs, err := filepath.Abs(p.prefix)
		if err != nil {
			return "", err
		}
		return PrefixKernelsDir(abs), nil
	}
	return "", nil
}

func install(args []string, cfg Config) int {
	fs := flag.NewFlagSet("tensorsh kernel install", flag.ContinueOnError)
	fs.SetOutput(cfg.Stderr)
	fs.Usage = func() { fmt.Fprint(cfg.Stderr, usage) }
	var place placeFlags
	place.register(fs)
	display := fs.String("display-name", "", "the name notebooks show (default: tensorsh, or tensorsh (POLICY))")
	policy := fs.String("policy", "", "the promotion policy the kernel starts with")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(cfg.Stderr, usage)
		return 2
	}
	dir, err := place.dir()
	if err == nil && dir == "" {
		dir, err = UserKernelsDir()
	}
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "tensorsh kernel install: %v\n", err)
		return 1
	}
	if *policy != "" {
		// A bad policy is refused now, not when Jupyter starts the kernel.
		if _, err := cfg.NewEngine(*policy); err != nil {
			fmt.Fprintf(cfg.Stderr, "tensorsh kernel install: %v\n", err)
			return 1
		}
	}
	argv := cfg.Command
	if len(argv) == 0 {
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			fmt.Fprintf(cfg.Stderr, "tensorsh kernel install: cannot find this program: %v\n", err)
			return 1
		}
		argv = []string{exe, "kernel"}
	}
	argv = append(append([]string(nil), argv...), "--connection-file", "{connection_file}")
	name := *display
	if *policy != "" {
		argv = append(argv, "--policy", *policy)
		if name == "" {
			name = "tensorsh (" + *policy + ")"
		}
	}
	if name == "" {
		name = "tensorsh"
	}
	spec := KernelSpec{
		Argv:          argv,
		DisplayName:   name,
		Language:      LanguageName,
		InterruptMode: "message",
		Env:           cfg.Env,
	}
	where, err := InstallKernelSpec(dir, place.name, spec)
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "tensorsh kernel install: %v\n", err)
		return 1
	}
	fmt.Fprintf(cfg.Stdout, "installed kernelspec %s in %s\n", strings.ToLower(place.name), where)
	return 0
}

func uninstall(args []string, cfg Config) int {
	fs := flag.NewFlagSet("tensorsh kernel uninstall", flag.ContinueOnError)
	fs.SetOutput(cfg.Stderr)
	fs.Usage = func() { fmt.Fprint(cfg.Stderr, usage) }
	var place placeFlags
	place.register(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprint(cfg.Stderr, usage)
		return 2
	}
	dir, err := place.dir()
	if err != nil {
		fmt.Fprintf(cfg.Stderr, "tensorsh kernel uninstall: %v\n", err)
		return 1
	}
	dirs := []string{dir}
	if dir == "" {
		dirs = searchDirs()
	}
	removed, status := 0, 0
	for _, d := range dirs {
		ok, err := UninstallKernelSpec(d, place.name)
		if err != nil {
			fmt.Fprintf(cfg.Stderr, "tensorsh kernel uninstall: %v\n", err)
			status = 1
		}
		if ok {
			removed++
			fmt.Fprintf(cfg.Stdout, "removed %s\n", filepath.Join(d, strings.ToLower(place.name)))
		}
	}
	if removed == 0 && status == 0 {
		fmt.Fprintf(cfg.Stderr, "tensorsh kernel uninstall: no kernelspec %q found in %s\n",
			strings.ToLower(place.name), strings.Join(dirs, ", "))
		return 1
	}
	return status
}

// searchDirs lists the kernelspec directories Jupyter searches, in its
// order: JUPYTER_PATH, the user's, the environment's, the system's.
func searchDirs() []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("JUPYTER_PATH")) {
		if d != "" {
			dirs = append(dirs, filepath.Join(d, "kernels"))
		}
	}
	if d, err := UserKernelsDir(); err == nil {
		dirs = append(dirs, d)
	}
	for _, v := range []string{"VIRTUAL_ENV", "CONDA_PREFIX"} {
		if p := os.Getenv(v); p != "" {
			dirs = append(dirs, PrefixKernelsDir(p))
		}
	}
	dirs = append(dirs, systemKernelsDirs...)
	seen := map[string]bool{}
	var out []string
	for _, d := range dirs {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	return out
}
