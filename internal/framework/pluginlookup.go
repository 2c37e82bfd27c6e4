package framework

import (
	"context"
	"net/http"
	"strconv"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/client"
)

// pluginLookups are ProviderData.Plugin's looks at the plugin listing: the
// answers that hold for the whole operation, kept, and the looks under way,
// shared. Its zero value is ready.
type pluginLookups struct {
	known  sync.Map // id -> pluginAnswer
	flight singleflight.Group
}

// pluginAnswer is one look's outcome; ownerEnded says the look stopped
// because the context of the caller that made it ended.
type pluginAnswer struct {
	plugin     *client.Plugin
	err        error
	ownerEnded bool
}

// Plugin returns plugin id as the organization's plugin listing shows it.
// The listing is asked once per operation for an answer that holds: the
// plugin, or a refusal that the same request would get again (a 4xx other
// than 429, such as a key limited to projects, or the API gone). What
// waiting may mend (no answer, a 5xx, a throttle, a cancelled context) is
// never kept: the next caller asks again. Concurrent callers share one look;
// when it ends because its caller's context ended, the others look again
// under their own.
func (d *ProviderData) Plugin(ctx context.Context, id int64) (*client.Plugin, error) {
	l := &d.plugins
	for {
		if a, ok := l.get(id); ok {
			return a.plugin, a.err
		}
		look := l.flight.DoChan(strconv.FormatInt(id, 10), func() (any, error) {
			if a, ok := l.get(id); ok {
				return a, nil
			}
			p, err := d.Client.Plugin(ctx, client.CurrentOrganization, id)
			a := pluginAnswer{plugin: p, err: err, ownerEnded: err != nil && ctx.Err() != nil}
			if err == nil || lastingRefusal(err) {
				l.known.Store(id, a)
			}
			return a, nil
		})
		select {
		case r := <-look:
			a, _ := r.Val.(pluginAnswer)
			if !a.ownerEnded || ctx.Err() != nil {
				return a.plugin, a.err
			}
			// Another caller's context ended its look: look again under ours.
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

func (l *pluginLookups) get(id int64) (pluginAnswer, bool) {
	a, ok := l.known.Load(id)
	answer, _ := a.(pluginAnswer)
	return answer, ok
}

// lastingRefusal reports an answer the same request gets again within the
// operation: a 4xx but a 429, or the API gone.
func lastingRefusal(err error) bool {
	status := client.StatusOf(err)
	return status >= 400 && status < 500 && status != http.StatusTooManyRequests || client.IsServiceGone(err)
}
