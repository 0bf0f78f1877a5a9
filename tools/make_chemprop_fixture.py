"""Write the chemprop 2.3.1 fixture of kusari.chem's ChempropPreprocessor and DMPNN tests.

Run ``python tools/make_chemprop_fixture.py [OUT_DIR]``. It builds (once) chemprop 2.3.1 on torch
2.13.0 (CPU) in a Python 3.11 venv with bench.chem's recipe (``bench.environments.ensure('chemprop')``:
``~/.cache/kusari-bench/envs/chemprop``, or ``$KUSARI_BENCH_CACHE``), then runs a script in it that
writes ``chemprop.npz`` into ``tests/chem/fixtures/`` (or OUT_DIR):

- ``smiles``: 8 molecules (charges, a chiral centre, an E double bond, a salt, an aromatic ring,
  a single heavy atom);
- ``mol/<k>/V`` (n_atoms, 72), ``mol/<k>/E`` (n_bonds * 2, 14), ``mol/<k>/edge_index`` (2, n_bonds * 2):
  chemprop's ``SimpleMoleculeMolGraphFeaturizer`` output (its default V2 atom features);
- ``defaults``: JSON of the architecture ``chemprop train`` builds by default (message hidden size,
  depth, bias, aggregation and its norm, FFN hidden size and layers, batch norm, dropout);
- ``param/<name>``: the weights of a small D-MPNN of that architecture (hidden size 32 to keep the
  file small; torch seed 0): ``message_passing.W_i.weight``, ``.W_h.weight``, ``.W_o.weight``,
  ``.W_o.bias``, ``predictor.ffn.0.0.weight``/``bias``, ``predictor.ffn.1.2.weight``/``bias``;
- ``fingerprint`` (8, 32): the aggregated graph vectors; ``y`` (8, 1): the FFN's outputs, in eval
  mode and without the target scaler;
- ``t`` (8, 1) targets and ``grad/<name>``: the gradients of ``mean((y - t) ** 2)`` (one training
  step's) with respect to every parameter.
"""
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "chem" / "fixtures"

CHEMPROP_SCRIPT = r'''
import json
import sys

import numpy as np
import torch
from chemprop import nn
from chemprop.cli.main import construct_parser
from chemprop.data import BatchMolGraph
from chemprop.featurizers import SimpleMoleculeMolGraphFeaturizer
from chemprop.models import MPNN
from chemprop.utils import make_mol

out = sys.argv[1]
SMILES = ["CCO", "c1ccccc1O", "C[N+](C)(C)C", "C[C@H](N)C(=O)O", "C/C=C/Cl", "[Na+].[Cl-]",
          "O", "CC(=O)Nc1ccc(O)cc1"]
HIDDEN = 32



def first(value):   # per-component options are lists
    return value[0] if isinstance(value, list) else value


# chemprop train's defaults, read from its own parser
args = construct_parser().parse_args(["train", "--data-path", "x.csv"])
defaults = dict(message_hidden_dim=first(args.message_hidden_dim), depth=first(args.depth),
                message_bias=bool(args.message_bias), undirected=bool(args.undirected),
                aggregation=args.aggregation, aggregation_norm=args.aggregation_norm,
                ffn_hidden_dim=first(args.ffn_hidden_dim), ffn_num_layers=args.ffn_num_layers,
                batch_norm=bool(args.batch_norm), dropout=args.dropout, activation=str(args.activation),
                atom_features=str(args.multi_hot_atom_featurizer_mode))

featurizer = SimpleMoleculeMolGraphFeaturizer()
graphs = [featurizer(make_mol(s, keep_h=False, add_h=False, ignore_stereo=False)) for s in SMILES]
result = {"smiles": np.array(SMILES), "defaults": np.array(json.dumps(defaults))}
for k, g in enumerate(graphs):
    result[f"mol/{k}/V"] = g.V.astype(np.float32)
    result[f"mol/{k}/E"] = g.E.astype(np.float32)
    result[f"mol/{k}/edge_index"] = g.edge_index.astype(np.int64)

torch.manual_seed(0)
mp = nn.BondMessagePassing(d_v=featurizer.atom_fdim, d_e=featurizer.bond_fdim, d_h=HIDDEN,
                           depth=defaults["depth"], bias=defaults["message_bias"])
agg = nn.NormAggregation(norm=defaults["aggregation_norm"])
ffn = nn.RegressionFFN(input_dim=HIDDEN, hidden_dim=HIDDEN, n_layers=defaults["ffn_num_layers"])
model = MPNN(mp, agg, ffn, batch_norm=defaults["batch_norm"])
model.eval()
bmg = BatchMolGraph(graphs)
with torch.no_grad():
    result["fingerprint"] = model.fingerprint(bmg).numpy()
    result["y"] = model(bmg).numpy()
t = torch.linspace(-2.0, 1.0, len(SMILES)).reshape(-1, 1)
result["t"] = t.numpy()
model.zero_grad()
loss = ((model(bmg) - t) ** 2).mean()
loss.backward()
for name, p in model.named_parameters():
    result[f"param/{name}"] = p.detach().numpy().copy()
    result[f"grad/{name}"] = p.grad.numpy().copy()
np.savez_compressed(out, **result)
print("wrote", out, "with", sorted(k for k in result if not k.startswith("mol/")))
'''


def main(argv=None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    out_dir = pathlib.Path(argv[0]) if argv else DEFAULT_OUT
    out_dir.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    from bench import environments
    python = environments.ensure("chemprop")
    subprocess.run([python, "-c", CHEMPROP_SCRIPT, str(out_dir / "chemprop.npz")], check=True)


if __name__ == "__main__":
    main()
