package acctest

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
	"github.com/pipelinecfg/terraform-provider-pipeline/internal/framework"
)

// The service generation the tests run against (the notes' "Versions of
// the service": generation 1 is version B, the seed's, 2 the versions
// whose records have no filters, E and E2026, but C and D too, 3 version
// F). A live instance of generation 2 creates no configs, or none with the
// filters the tests set, so the tests that create one are skipped there,
// with that reason, while the tests of configs that already exist
// (Existing) run; the in-process local API is version B.

// EnvServiceGeneration tells the generation of a live instance (1, 2 or 3);
// without it the tests detect it.
const EnvServiceGeneration = "POSTHOG_SERVICE_GENERATION"

// EnvExistingConfig names the variable that gives the id of an existing
// config of kind k on a live instance, e.g. PIPELINE_TEST_TRANSFORMATION_CONFIG_ID.
func EnvExistingConfig(k framework.Kind) string {
	return "PIPELINE_TEST_" + strings.ToUpper(k.Name) + "_CONFIG_ID"
}

var (
	generationOnce sync.Once
	generation     int
	generationHow  string
	generationErr  error
)

// Generation returns the generation of the instance the tests run against,
// and how it is known: 1 for the local API; for a live instance
// EnvServiceGeneration, or what the service shows (detectGeneration).
func Generation(t testing.TB) (int, string) {
	t.Helper()
	inst := mustGet(t)
	generationOnce.Do(func() {
		switch {
		case inst.local != nil:
			generation, generationHow = 1, "the in-process local API"
		case os.Getenv(EnvServiceGeneration) != "":
			generationHow = EnvServiceGeneration
			generation, generationErr = strconv.Atoi(os.Getenv(EnvServiceGeneration))
			if generationErr == nil && (generation < 1 || generation > 3) {
				generationErr = fmt.Errorf("%s=%d: want 1, 2 or 3", EnvServiceGeneration, generation)
			}
		default:
			generationHow = "detected"
			generation, generationErr = detectGeneration(API(t), inst.project)
		}
	})
	if generationErr != nil {
		t.Fatalf("service generation: %v", generationErr)
	}
	return generation, generationHow
}

// detectGeneration tells a live instance's generation from what it shows:
// 3 when a collection answers 404 (the client's ServiceGoneError), 2 when
// a config comes without a filters field, else 1. It reads the existing
// configs the environment names, or else the collections' first pages; a
// service without any config shows nothing and counts as 1 (set
// EnvServiceGeneration then).
func detectGeneration(c *client.Client, project string) (int, error) {
	ctx := context.Background()
	for _, k := range framework.Kinds() {
		var recs []client.Record
		if raw := os.Getenv(EnvExistingConfig(k)); raw != "" {
			id, err := strconv.ParseInt(raw, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", EnvExistingConfig(k), err)
			}
			rec, err := c.Get(ctx, project, k.Collection, id)
			if client.IsServiceGone(err) {
				return 3, nil
			}
			if err != nil {
				return 0, err
			}
			recs = append(recs, *rec)
		} else {
			page, err := c.List(ctx, project, k.Collection, 1, 0)
			if client.IsServiceGone(err) {
				return 3, nil
			}
			if err != nil {
				return 0, err
			}
			recs = page.Results
		}
		for i := range recs {
			if recs[i].FiltersOmitted() {
				return 2, nil
			}
		}
	}
	return 1, nil
}

// SkipUnlessCreates skips a test that creates configs when the instance
// no longer creates them (generation 2 and later); the tests of existing
// configs run there instead.
func SkipUnlessCreates(t testing.TB) {
	t.Helper()
	if gen, how := Generation(t); gen >= 2 {
		t.Skipf("creates configs, which a service of generation %d (%s) no longer does", gen, how)
	}
}
