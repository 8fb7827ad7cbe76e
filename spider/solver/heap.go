package solver

// nodeHeap is a max-heap of node indices by evaluation; ties go to the
// newer node, so plateaus are searched depth first.
type nodeHeap struct{ idx []int32 }

func (h *nodeHeap) len() int { return len(h.idx) }

func less(nodes []node, a, b int32) bool { // a before b
	ea, eb := nodes[a].eval, nodes[b].eval
	if ea != eb {
		return ea > eb
	}
	return a > b
}

func (h *nodeHeap) push(i int32, nodes []node) {
	h.idx = append(h.idx, i)
	j := len(h.idx) - 1
	for j > 0 {
		p := (j - 1) / 2
		if !less(nodes, h.idx[j], h.idx[p]) {
			break
		}
		h.idx[j], h.idx[p] = h.idx[p], h.idx[j]
		j = p
	}
}

func (h *nodeHeap) pop(nodes []node) int32 {
	top := h.idx[0]
	last := len(h.idx) - 1
	h.idx[0] = h.idx[last]
	h.idx = h.idx[:last]
	j := 0
	for {
		l := 2*j + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && less(nodes, h.idx[r], h.idx[l]) {
			c = r
		}
		if !less(nodes, h.idx[c], h.idx[j]) {
			break
		}
		h.idx[j], h.idx[c] = h.idx[c], h.idx[j]
		j = c
	}
	return top
}
