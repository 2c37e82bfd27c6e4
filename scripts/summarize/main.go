// Command summarize prints a list page of pipeline configs, read from stdin,
// as a short table. The demo uses it to show what the API holds.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"text/tabwriter"
)

type record struct {
	ID      int64   `json:"id"`
	Plugin  int64   `json:"plugin"`
	Name    *string `json:"name"`
	Enabled bool    `json:"enabled"`
	Order   int64   `json:"order"`
	Deleted bool    `json:"deleted"`
	// Config is the config's settings, shown as the service sent them.
	Config json.RawMessage `json:"config"`
}

func main() {
	var page struct {
		Count   int      `json:"count"`
		Results []record `json:"results"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&page); err != nil {
		fmt.Fprintln(os.Stderr, "summarize:", err)
		os.Exit(1)
	}
	w := tabwriter.NewWriter(os.Stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(w, "  id\tplugin\tname\tenabled\torder\tdeleted\tsettings")
	for _, r := range page.Results {
		name := ""
		if r.Name != nil {
			name = *r.Name
		}
		settings := string(r.Config)
		if settings == "" {
			settings = "null"
		}
		fmt.Fprintf(w, "  %d\t%d\t%s\t%t\t%d\t%t\t%s\n", r.ID, r.Plugin, name, r.Enabled, r.Order, r.Deleted, settings)
	}
	_ = w.Flush()
}
