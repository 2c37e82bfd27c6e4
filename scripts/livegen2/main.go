// Command livegen2 seeds and checks the service of scripts/live-gen2.sh,
// the acceptance suite in live mode against a service of generation 2:
//
//	livegen2 seed -host URL -snapshot FILE
//	    creates configs of both kinds (the service must still be of
//	    generation 1), prints PIPELINE_TEST_<KIND>_CONFIG_ID=<id> lines for
//	    the tests of existing configs, and keeps what every config of the
//	    test project holds in FILE;
//	livegen2 check -host URL -snapshot FILE
//	    fails when a config no longer holds what FILE says: the tests must
//	    leave the configs they were given as they found them.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

const (
	project = "1"
	key     = "phx_local_full" // the local API's legacy key
)

// snapshot is what a config holds that the tests may change.
type snapshot struct {
	ID          int64   `json:"id"`
	Collection  string  `json:"collection"`
	Name        *string `json:"name"`
	Description *string `json:"description"`
	Enabled     bool    `json:"enabled"`
	Order       int64   `json:"order"`
	Deleted     bool    `json:"deleted"`
}

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	host := fs.String("host", "", "the service's URL")
	file := fs.String("snapshot", "", "the snapshot file")
	_ = fs.Parse(os.Args[2:])
	if *host == "" || *file == "" {
		usage()
	}
	c, err := client.New(client.Config{Host: *host, APIKey: key, MaxRetries: 3})
	if err != nil {
		fail(err)
	}
	switch os.Args[1] {
	case "seed":
		err = seed(c, *file)
	case "check":
		err = check(c, *file)
	default:
		usage()
	}
	if err != nil {
		fail(err)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: livegen2 seed|check -host URL -snapshot FILE")
	os.Exit(2)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "livegen2:", err)
	os.Exit(1)
}

// plugins are two plugins of each kind in the local API's catalog (GeoIP
// and Property Filter; S3 Import and BigQuery Import).
var plugins = map[string][2]int64{"transformation": {1, 2}, "import_app": {3, 4}}

// seed makes two enabled configs of each kind and a disabled one, with
// filters (which a generation 2 service hides).
func seed(c *client.Client, file string) error {
	ctx := context.Background()
	for _, k := range framework.Kinds() {
		var first int64
		for i, in := range []client.RecordInput{
			{Plugin: client.Some(plugins[k.Name][0]), Order: client.Some(int64(2)), Enabled: client.Some(true),
				Name: client.Some("seeded " + k.Name), Description: client.Some("made under generation 1"),
				Filters: client.Some(json.RawMessage(`{"events":[{"id":"$pageview","type":"events"}]}`))},
			{Plugin: client.Some(plugins[k.Name][1]), Order: client.Some(int64(1)), Enabled: client.Some(true)},
			{Plugin: client.Some(plugins[k.Name][1]), Order: client.Some(int64(3))},
		} {
			rec, err := c.Create(ctx, project, k.Collection, in)
			if err != nil {
				return fmt.Errorf("seeding a %s: %w", k.Noun, err)
			}
			if i == 0 {
				first = rec.ID
			}
		}
		fmt.Printf("PIPELINE_TEST_%s_CONFIG_ID=%d\n", strings.ToUpper(k.Name), first)
	}
	snap, err := take(ctx, c)
	if err != nil {
		return err
	}
	b, err := json.MarshalIndent(snap, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o600) //nolint:gosec // G703: the script's own file
}

// take reads every config of the test project.
func take(ctx context.Context, c *client.Client) ([]snapshot, error) {
	var out []snapshot
	for _, k := range framework.Kinds() {
		recs, err := c.ListAll(ctx, project, k.Collection)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			out = append(out, snapshot{ID: r.ID, Collection: string(k.Collection), Name: r.Name, Description: r.Description,
				Enabled: r.Enabled, Order: r.Order, Deleted: r.Deleted})
		}
	}
	slices.SortFunc(out, func(a, b snapshot) int { return int(a.ID - b.ID) })
	return out, nil
}

// check compares every config of the snapshot with what the service holds
// now (by retrieve: a generation 2 service lists no deleted config).
func check(c *client.Client, file string) error {
	b, err := os.ReadFile(file) //nolint:gosec // G304: the script's own file
	if err != nil {
		return err
	}
	var want []snapshot
	if err := json.Unmarshal(b, &want); err != nil {
		return err
	}
	ctx := context.Background()
	var diffs []string
	for _, w := range want {
		r, err := c.Get(ctx, project, client.Collection(w.Collection), w.ID)
		if err != nil {
			return err
		}
		got := snapshot{ID: r.ID, Collection: w.Collection, Name: r.Name, Description: r.Description,
			Enabled: r.Enabled, Order: r.Order, Deleted: r.Deleted}
		g, _ := json.Marshal(got)
		x, _ := json.Marshal(w)
		if string(g) != string(x) {
			diffs = append(diffs, fmt.Sprintf("  config %d: now %s, was %s", w.ID, g, x))
		}
	}
	if len(diffs) > 0 {
		return fmt.Errorf("the tests left configs changed:\n%s", strings.Join(diffs, "\n"))
	}
	fmt.Fprintf(os.Stderr, "livegen2: the %d configs are as the tests found them\n", len(want))
	return nil
}
