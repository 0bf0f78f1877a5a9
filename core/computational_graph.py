"""Build the computational graph behind some outputs and dump it in Graphviz DOT."""
import heapq

from kusari.variable import Variable, VariableNode


class ComputationalGraph:
    """Nodes (VariableNodes and FunctionNodes) and edges of a graph; ``dump()`` writes DOT."""

    def __init__(self, nodes, edges, variable_style=None, function_style=None, rankdir="TB",
                 remove_variable=False, show_name=True):
        self.nodes = nodes
        self.edges = edges
        self.variable_style = variable_style or {"shape": "octagon", "fillcolor": "#E0E0E0",
                                                 "style": "filled"}
        self.function_style = function_style or {"shape": "record", "fillcolor": "#6495ED",
                                                 "style": "filled"}
        if rankdir not in ("TB", "BT", "LR", "RL"):
            raise ValueError(f"ComputationalGraph: rankdir must be TB, BT, LR or RL, got {rankdir!r}")
        self.rankdir = rankdir
        self.remove_variable = remove_variable
        self.show_name = show_name

    def _label(self, node):
        if isinstance(node, VariableNode):
            name = node.name if self.show_name and node.name else ""
            return (name + ": " if name else "") + node.label
        return node.label

    def _to_dot(self) -> str:
        lines = ["digraph graphname{", f"rankdir={self.rankdir};"]
        for node in self.nodes:
            style = self.variable_style if isinstance(node, VariableNode) else self.function_style
            attrs = {"label": self._label(node), **style}
            body = ",".join(f'{k}="{v}"' for k, v in attrs.items())
            lines.append(f"{id(node)} [{body}];")
        for head, tail in self.edges:
            lines.append(f"{id(head)} -> {id(tail)};")
        lines.append("}")
        return "\n".join(lines)

    def dump(self, format="dot") -> str:
        if format != "dot":
            raise NotImplementedError(f"ComputationalGraph.dump: format {format!r} is not supported (only 'dot')")
        return self._to_dot()


def build_computational_graph(outputs, remove_split=True, variable_style="default",
                              function_style="default", rankdir="TB", remove_variable=False,
                              show_name=True) -> ComputationalGraph:
    """The graph that produced ``outputs`` (Variables or VariableNodes), walked back to the leaves."""
    if isinstance(outputs, (Variable, VariableNode)):
        outputs = [outputs]
    nodes, edges, seen = [], set(), set()
    heap = []
    counter = 0

    def push(node):
        nonlocal counter
        if id(node) in seen:
            return
        seen.add(id(node))
        nodes.append(node)
        counter += 1
        heapq.heappush(heap, (-getattr(node, "rank", 0), counter, node))

    for out in outputs:
        push(out.node if isinstance(out, Variable) else out)
    while heap:
        node = heapq.heappop(heap)[2]
        if isinstance(node, VariableNode):
            creator = node.creator_node
            if creator is not None:
                edges.add((creator, node))
                push(creator)
        else:
            for x in node.inputs or ():
                edges.add((x, node))
                push(x)
    if remove_variable:
        fn_edges = set()
        for head, tail in edges:
            if isinstance(head, VariableNode):
                for h2, t2 in edges:
                    if t2 is head:
                        fn_edges.add((h2, tail))
        nodes = [n for n in nodes if not isinstance(n, VariableNode)]
        edges = fn_edges
    return ComputationalGraph(nodes, sorted(edges, key=lambda e: (id(e[0]), id(e[1]))),
                              None if variable_style == "default" else variable_style,
                              None if function_style == "default" else function_style,
                              rankdir, remove_variable, show_name)
