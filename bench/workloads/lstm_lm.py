"""LSTM language-model step with PTB-medium shapes: embed 10000->650, two LSTM layers of 650, linear 650->10000.

One step is one truncated-BPTT segment of ``bptt`` time steps at batch 20: per time step the model's output is scored
by softmax cross entropy; then backward, an SGD update, and the graph is cut while the LSTM state carries on. The
layers run one time step at a time in every framework (Chainer's ``L.LSTM``, PyTorch's ``nn.LSTMCell``). Dropout and
gradient clipping of the original recipe are left out: they are not what is compared here.
"""
from bench.workloads._api import ChainerAPI, torch_api

DESCRIPTION = "LSTM LM step (PTB-medium: 650 units, 2 layers, vocab 10000, batch 20)"
OPS_PER_STEP = 1
PARAMS = {"bptt": 35, "batch": 20}
VOCAB = 10000
UNITS = 650
LEARNING_RATE = 0.01


def _chainer_style(api: ChainerAPI, bptt, batch):
    F, L = api.F, api.L
    embed, lstm1, lstm2, out = L.EmbedID(VOCAB, UNITS), L.LSTM(UNITS, UNITS), L.LSTM(UNITS, UNITS), L.Linear(UNITS, VOCAB)
    model = api.core.Sequential(embed, lstm1, lstm2, out)
    optimizer = api.optimizers.SGD(lr=LEARNING_RATE)
    optimizer.setup(model)
    tokens = api.labels(VOCAB, bptt + 1, batch)

    def step():
        loss = 0
        for t in range(bptt):
            loss += F.softmax_cross_entropy(model(tokens[t]), tokens[t + 1])
        model.cleargrads()
        loss.backward()
        loss.unchain_backward()
        optimizer.update()
    return step


def setup_kusari(bptt, batch):
    return _chainer_style(ChainerAPI("kusari"), bptt, batch)


def setup_chainer(bptt, batch):
    return _chainer_style(ChainerAPI("chainer"), bptt, batch)


def setup_torch(bptt, batch):
    torch = torch_api()
    nn = torch.nn
    embed, out = nn.Embedding(VOCAB, UNITS), nn.Linear(UNITS, VOCAB)
    cells = [nn.LSTMCell(UNITS, UNITS), nn.LSTMCell(UNITS, UNITS)]
    params = [p for m in (embed, *cells, out) for p in m.parameters()]
    optimizer = torch.optim.SGD(params, lr=LEARNING_RATE)
    tokens = torch.randint(0, VOCAB, (bptt + 1, batch))
    state = [(torch.zeros(batch, UNITS), torch.zeros(batch, UNITS)) for _ in cells]

    def step():
        carried = [(h.detach(), c.detach()) for h, c in state]
        loss = 0
        for t in range(bptt):
            h = embed(tokens[t])
            for i, cell in enumerate(cells):
                carried[i] = cell(h, carried[i])
                h = carried[i][0]
            loss = loss + nn.functional.cross_entropy(out(h), tokens[t + 1])
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        state[:] = carried
    return step
