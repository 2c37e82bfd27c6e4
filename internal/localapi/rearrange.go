package localapi

import (
	"encoding/json"
	"math"
	"math/big"
	"net/http"
	"strings"

	"github.com/pipelinecfg/terraform-provider-pipeline/internal/python"
)

// rearrange applies {"orders": {"<key>": <order>}} to the project's
// enabled configs, across both collections, in one transaction (each moved
// config's activity log says so). From version D on a key is a config id
// (PostHog PR #25065); in B and C it is a plugin id, and the order goes to
// the project's enabled config of that plugin, the last one the service
// meets when it has several (*choice*: the one with the highest id). Unknown,
// disabled or foreign keys are ignored; a key that is not an integer (or an
// order the column cannot hold) is a 500 and changes nothing. The answer is
// a bare array of every enabled config of the project: by order, or in no
// defined order on today's service (the notes' "The service as it is in
// 2026"), shuffled from the faults' source (seeded by Faults.Seed).
func (s *Server) rearrange(req *request) *apiError {
	if req.noAccess {
		return errInvalid(DetailNoPluginAccess, "")
	}
	b, e := readBody(req.w, req.r)
	if e != nil {
		return e
	}
	orders, e := ordersOf(b)
	if e != nil {
		return e
	}
	byPlugin := req.svc.v.rearrangesByPlugin()
	recs, err := s.store.reorder(req.ctx, req.project, func(enabled map[int64]*record) (map[int64]int64, error) {
		keyed := enabled
		if byPlugin {
			keyed = lastOfEachPlugin(enabled)
		}
		out := map[int64]int64{}
		for k, v := range orders {
			key, ok := pyIntKey(k)
			if !ok {
				return nil, errServer()
			}
			if !key.IsInt64() || keyed[key.Int64()] == nil {
				continue
			}
			n, ok := storableOrder(v)
			if !ok {
				return nil, errServer()
			}
			out[keyed[key.Int64()].ID] = n
		}
		return out, nil
	}, s.logAs(activityUpdated))
	if err != nil {
		return s.failed(req, err)
	}
	if req.svc.isToday() {
		s.faults.Load().shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	}
	views := make([]*recordView, len(recs))
	for i, rec := range recs {
		views[i] = rec.view(req.cat, false, req.svc)
	}
	writeJSON(req.w, http.StatusOK, views)
	return nil
}

// lastOfEachPlugin keys the enabled configs (by id) by plugin id: of a
// plugin's several, the one with the highest id.
func lastOfEachPlugin(enabled map[int64]*record) map[int64]*record {
	out := make(map[int64]*record, len(enabled))
	for _, rec := range enabled {
		if had := out[rec.Plugin]; had == nil || had.ID < rec.ID {
			out[rec.Plugin] = rec
		}
	}
	return out
}

// ordersOf reads the orders object; the live view fails (500) on a body
// or orders value that is not an object.
func ordersOf(b *body) (map[string]any, *apiError) {
	if b.isForm() {
		if _, ok := b.form["orders"]; ok {
			return nil, errServer()
		}
		return nil, nil
	}
	if b.json == nil && !b.isNull {
		return nil, nil
	}
	obj, ok := b.json.(map[string]any)
	if !ok {
		return nil, errServer()
	}
	raw, present := obj["orders"]
	if !present {
		return nil, nil
	}
	orders, ok := raw.(map[string]any)
	if !ok {
		return nil, errServer()
	}
	return orders, nil
}

// pyIntKey parses a key as Python's int() does.
func pyIntKey(k string) (*big.Int, bool) {
	if strings.Contains(k, ".") {
		return nil, false
	}
	return python.Int(k)
}

// storableOrder converts an order value as the live model field does
// (Python int()) and checks it fits the 32-bit column.
func storableOrder(v any) (int64, bool) {
	var n *big.Int
	switch x := v.(type) {
	case bool:
		n = big.NewInt(0)
		if x {
			n.SetInt64(1)
		}
	case json.Number:
		if isIntegerLiteral(string(x)) {
			var ok bool
			if n, ok = new(big.Int).SetString(string(x), 10); !ok {
				return 0, false
			}
		} else {
			f, err := x.Float64()
			if err != nil || math.IsInf(f, 0) {
				return 0, false
			}
			n, _ = big.NewFloat(math.Trunc(f)).Int(nil)
		}
	case string:
		var ok bool
		if n, ok = pyIntKey(x); !ok {
			return 0, false
		}
	default:
		return 0, false
	}
	if !n.IsInt64() || n.Int64() < minOrder || n.Int64() > maxOrder {
		return 0, false
	}
	return n.Int64(), true
}
