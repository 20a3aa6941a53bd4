// SPDX-License-Identifier: GPL-2.0
//
// A stand-in for Pyroscope's ingest API, for test_push_payload.sh: it takes
// POST /ingest as Pyroscope does (the query's name, from, until and
// format=pprof; the pprof in the multipart form's file field "profile") and
// writes what it got to DIR: N.query (the query's parameters, one
// "key=value" a line) and N.pb.gz (the profile). Bad requests get 400 and
// leave nothing. Its port goes to DIR/port. Standard library only.
//
// Usage: go run ingest_server.go DIR
package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// name is "app.cpu" with optional labels: "app.cpu{pid=1,host=h}".
var nameRe = regexp.MustCompile(`^[A-Za-z0-9_.:/-]+(\{([A-Za-z0-9_]+=[A-Za-z0-9_.:/-]*)(,[A-Za-z0-9_]+=[A-Za-z0-9_.:/-]*)*\})?$`)

func main() {
	dir := os.Args[1]
	var mu sync.Mutex
	n := 0
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	http.HandleFunc("/ingest", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		if r.Method != http.MethodPost {
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
			return
		}
		if !nameRe.MatchString(q.Get("name")) || q.Get("from") == "" ||
			q.Get("until") == "" || q.Get("format") != "pprof" {
			http.Error(w, "bad query: "+r.URL.RawQuery, http.StatusBadRequest)
			return
		}
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f, _, err := r.FormFile("profile")
		if err != nil {
			http.Error(w, "no profile field", http.StatusBadRequest)
			return
		}
		defer f.Close()
		body, err := io.ReadAll(f)
		if err != nil || len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
			http.Error(w, "profile is no gzip", http.StatusBadRequest)
			return
		}
		mu.Lock()
		n++
		base := filepath.Join(dir, fmt.Sprint(n))
		mu.Unlock()
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var lines strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&lines, "%s=%s\n", k, q.Get(k))
		}
		if os.WriteFile(base+".pb.gz", body, 0600) != nil ||
			os.WriteFile(base+".query", []byte(lines.String()), 0600) != nil {
			http.Error(w, "cannot store", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusOK)
	})
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	if err := os.WriteFile(filepath.Join(dir, "port.tmp"), []byte(port), 0600); err != nil ||
		os.Rename(filepath.Join(dir, "port.tmp"), filepath.Join(dir, "port")) != nil {
		os.Exit(1)
	}
	http.Serve(ln, nil)
}
