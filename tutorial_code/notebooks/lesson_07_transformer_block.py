# %% [markdown] lang="ko"
# # 7강 실습: 트랜스포머 블록
#
# 이 노트북은 강좌 패키지의 블록 부품(피드포워드 신경망, 잔차 연결과 층 정규화, 인코더 블록)을 그대로
# 가져와 작은 입력으로 돌려 봅니다. 목표는 다섯 가지입니다.
#
# 1. 블록 하나의 파라미터를 세어 강의의 식 $4D^2 + 4D$, $2Dd_{ff} + d_{ff} + D$, $4D$와 맞춰 봅니다.
# 2. 피드포워드 신경망은 위치마다 따로, 어텐션은 위치 사이를 섞는다는 것을 확인합니다.
# 3. 층 정규화와 배치 정규화가 각각 어느 축으로 정규화하는지 봅니다.
# 4. 잔차 연결이 입력을 출력까지 실어 나르는 모습을 봅니다.
# 5. 초기화 직후 Post-LN과 Pre-LN의 층별 기울기 노름을 재어 강의의 표와 비교합니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 7 lab: The Transformer block
#
# This notebook takes the course package's block parts (the feed-forward network, the residual
# connection with its LayerNorm, the encoder block) as they are and runs them on small inputs.
# Five goals:
#
# 1. Count one block's parameters and match them with the lesson's formulas $4D^2 + 4D$,
#    $2Dd_{ff} + d_{ff} + D$ and $4D$.
# 2. Check that the feed-forward network works on each position alone while attention mixes
#    positions.
# 3. See which axis layer normalization and batch normalization each normalise over.
# 4. Watch the residual connection carry the input through to the output.
# 5. Measure post-LN's and pre-LN's per-layer gradient norms right after initialisation and
#    compare them with the lesson's table.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom.

# %%
from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from torch import Tensor, nn

torch.manual_seed(0)
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 패키지의 블록
#
# 아래 코드는 강좌 패키지 `tutorial_code`의 코드와 한 글자도 다르지 않습니다. 3강의
# `scaled_dot_product_attention`과 5강의 `MultiHeadAttention` 위에 이번 강의의 세 클래스
# `PositionwiseFeedForward`, `SublayerConnection`, `EncoderLayer`가 올라갑니다.

# %% [markdown] lang="en"
# ## The package's block
#
# The code below is the course package's own (`tutorial_code`), word for word.
# This lesson's three classes, `PositionwiseFeedForward`, `SublayerConnection` and `EncoderLayer`,
# sit on top of lesson 3's `scaled_dot_product_attention` and lesson 5's `MultiHeadAttention`.

# %%
# [[code:layers.PositionwiseFeedForward]]


# [[code:layers.SublayerConnection]]


# [[code:layers.EncoderLayer]]

# %% [markdown] lang="ko"
# ## 블록 하나: 모양과 파라미터
#
# 인코더 블록은 $(B, L, D)$를 받아 같은 모양 $(B, L, D)$를 내놓고, 어텐션 가중치 $(B, h, L, L)$을
# 함께 돌려줍니다. 그다음 논문의 기본 블록($D$ = 512, $d_{ff}$ = 2048, 헤드 8개)과 이 강좌의 기준
# 블록($D$ = 64, $d_{ff}$ = 128, 헤드 4개)을 만들어 부품별 파라미터를 세고, 강의의 식과 나란히
# 출력합니다. 강의의 "손으로 풀어 보기" 표와 비교해 보세요.

# %% [markdown] lang="en"
# ## One block: shapes and parameters
#
# An encoder block takes $(B, L, D)$ and returns the same shape $(B, L, D)$, together with the
# attention weights $(B, h, L, L)$. Then we build the paper's base block ($D$ = 512,
# $d_{ff}$ = 2048, 8 heads) and the course's reference block ($D$ = 64, $d_{ff}$ = 128, 4 heads),
# count the parameters of each part and print them next to the lesson's formulas. Compare with the
# table of the lesson's worked example.

# %%
block = EncoderLayer(d_model=64, n_heads=4, d_ff=128)
x = torch.randn(2, 5, 64)  # ko: (B, L, D) # en: (B, L, D)
out, weights = block(x)
print("input", tuple(x.shape), "→ output", tuple(out.shape), "+ weights", tuple(weights.shape))


def n_params(module: nn.Module) -> int:
    return sum(p.numel() for p in module.parameters())


for name, (D, d_ff, h) in {"base": (512, 2048, 8), "reference": (64, 128, 4)}.items():
    b = EncoderLayer(D, h, d_ff)
    counted = {"attention": n_params(b.self_attn), "feed_forward": n_params(b.ffn),
               "norms": n_params(b.sublayer1) + n_params(b.sublayer2)}
    formula = {"attention": 4 * D**2 + 4 * D, "feed_forward": 2 * D * d_ff + d_ff + D, "norms": 2 * 2 * D}
    total = n_params(b)
    print(f"\n{name}: D={D}, d_ff={d_ff}, h={h}, total {total:,}")
    for part in counted:
        print(f"  {part:13s} {counted[part]:>10,}  formula {formula[part]:>10,}  share {counted[part] / total:6.1%}")

# %% [markdown] lang="ko"
# ## 피드포워드 신경망은 위치마다 따로
#
# 3번 위치(0부터 셈)의 입력만 바꾸고, 위치마다 출력이 얼마나 바뀌는지 봅니다. 패키지의
# `PositionwiseFeedForward`와 `MultiHeadAttention`을 나란히 놓습니다.

# %% [markdown] lang="en"
# ## The feed-forward network works on each position alone
#
# Change the input at position 3 only (counting from 0) and see how much each position's output
# moves, for the package's `PositionwiseFeedForward` and `MultiHeadAttention` side by side.

# %%
ffn = PositionwiseFeedForward(d_model=8, d_ff=16)
attn = MultiHeadAttention(d_model=8, n_heads=2)
x = torch.randn(1, 5, 8)
x2 = x.clone()
x2[0, 3] += 1.0  # ko: 3번 위치만 바꾸기 # en: change position 3 only
with torch.no_grad():
    ffn_change = (ffn(x2) - ffn(x)).abs().amax(-1)  # ko: (B, L) 위치마다 가장 큰 변화 # en: (B, L) largest change per position
    attn_change = (attn(x2)[0] - attn(x)[0]).abs().amax(-1)
print("feed-forward:", ffn_change.round(decimals=3))
print("attention:   ", attn_change.round(decimals=3))

# %% [markdown] lang="ko"
# 피드포워드 신경망의 변화는 3번 자리에서만 0이 아니고, 어텐션은 모든 자리가 바뀝니다. 블록에서
# 위치 사이에 정보가 오가는 곳은 어텐션뿐입니다.
#
# ## 층 정규화와 배치 정규화
#
# 강의의 표를 그대로 넣습니다. 토큰 2는 토큰 1과 모양이 같고 크기만 10배입니다. 층 정규화는
# `SublayerConnection`이 쓰는 `nn.LayerNorm`이고, 배치 정규화는 `F.batch_norm`입니다.

# %% [markdown] lang="en"
# The feed-forward network's change is non-zero at position 3 only, while attention's output moves
# everywhere: inside a block, attention is the only place where positions exchange information.
#
# ## Layer normalization and batch normalization
#
# The lesson's table goes in as it is: token 2 has token 1's shape, only ten times larger. Layer
# normalization is the `nn.LayerNorm` that `SublayerConnection` uses; batch normalization is
# `F.batch_norm`.

# %%
x = torch.tensor([[1.0, 2.0, 3.0],      # ko: 토큰 1 # en: token 1
                  [10.0, 20.0, 30.0]])  # ko: 토큰 2: 모양은 같고 10배 # en: token 2: the same shape, ten times larger
layer_norm = nn.LayerNorm(3)  # ko: 행(토큰)마다, 자기 특성 3개로 # en: each row (token), over its 3 features
with torch.no_grad():
    ln = layer_norm(x)
bn = F.batch_norm(x, None, None, training=True)  # ko: 열(특성)마다, 토큰 2개로 # en: each column (feature), over the 2 tokens
print("LayerNorm:\n", ln.round(decimals=3))
print("batch norm:\n", bn.round(decimals=3))
print("LayerNorm, mean of each row:   ", ln.mean(1).round(decimals=3))
print("batch norm, mean of each column:", bn.mean(0).round(decimals=3))

# %% [markdown] lang="ko"
# 층 정규화는 두 행을 똑같이 만들고(토큰의 크기가 지워짐), 배치 정규화는 토큰 안의 모양을 지웁니다.
# 배치 정규화는 같은 배치에 무엇이 함께 있느냐에 따라 답이 달라집니다. 토큰 1은 그대로 두고 옆의
# 토큰만 바꿔 봅니다.

# %% [markdown] lang="en"
# Layer normalization makes the two rows identical (each token's size is gone); batch
# normalization wipes out the pattern inside each token. Batch normalization's answer also depends
# on what else shares the batch. Keep token 1 and change only its neighbour:

# %%
for neighbour in ([10.0, 20.0, 30.0], [3.0, 2.0, 1.0]):
    batch = torch.tensor([[1.0, 2.0, 3.0], neighbour])
    with torch.no_grad():
        ln1 = layer_norm(batch)[0]
    bn1 = F.batch_norm(batch, None, None, training=True)[0]
    print(f"neighbour {neighbour}:  token 1 after LayerNorm {[round(v, 3) for v in ln1.tolist()]}"
          f"  after batch norm {[round(v, 3) for v in bn1.tolist()]}")

# %% [markdown] lang="ko"
# ## 잔차 연결은 입력을 실어 나른다
#
# 블록의 두 하위 층이 0을 내놓게 해 봅시다. 어텐션의 $W_O$와 피드포워드 신경망의 $W_2$를 0으로
# 만들면 됩니다. Pre-LN 블록은 $x + 0$이므로 입력을 그대로 통과시키고, Post-LN 블록은 더한 뒤
# 정규화하므로 $\operatorname{LayerNorm}(x)$를 내놓습니다. 차이가 잘 보이도록 입력은 평균 1,
# 표준편차 3으로 뽑습니다.

# %% [markdown] lang="en"
# ## The residual connection carries the input
#
# Make both sub-layers of a block output zero by zeroing attention's $W_O$ and the feed-forward
# network's $W_2$. A pre-LN block then computes $x + 0$ and passes its input straight through; a
# post-LN block normalises after the sum and returns $\operatorname{LayerNorm}(x)$. To make the
# difference plain, the input is drawn with mean 1 and standard deviation 3.

# %%
x = 1 + 3 * torch.randn(1, 5, 64)
for norm_first in (False, True):
    b = EncoderLayer(64, 4, 128, norm_first=norm_first)
    with torch.no_grad():
        for last in (b.self_attn.W_O, b.ffn.W_2):
            last.weight.zero_()
            last.bias.zero_()
        out, _ = b(x)
    name = "pre-LN " if norm_first else "post-LN"
    print(f"{name}  max |out - x| = {(out - x).abs().max():.4f}"
          f"   max |out - LayerNorm(x)| = {(out - F.layer_norm(x, (64,))).abs().max():.4f}")

# %% [markdown] lang="ko"
# ## Post-LN과 Pre-LN
#
# 두 방식을 비교하려면 패키지의 모델 코드가 더 필요합니다. 파라미터 초기화 `init_parameters`와, 강의의
# 실험이 쓴 디코더만 있는 모델 `DecoderOnlyTransformer`, 그리고 그 모델이 부르는 부품들입니다. 아래
# 셀이 그것을 가져옵니다(`tutorial_code/models.py`와, 모델이 부르는 `tutorial_code/layers.py`,
# `tutorial_code/masks.py`, `tutorial_code/position.py`). 마지막 함수 `layer_grad_norms`(`tutorial_code/params.py`)는 강의의 실험이
# 층별 기울기 노름을 재는 함수입니다.

# %% [markdown] lang="en"
# ## Post-LN and pre-LN
#
# Comparing the two placements takes more of the package's model code: the parameter initialisation
# `init_parameters`, the decoder-only model `DecoderOnlyTransformer` that the lesson's experiment
# uses, and the parts it calls. The next cell brings them in (`tutorial_code/models.py` and the
# `tutorial_code/layers.py`, `tutorial_code/masks.py` and `tutorial_code/position.py` it calls); its last function,
# `layer_grad_norms` (`tutorial_code/params.py`), is how the lesson's experiment measures the
# per-layer gradient norms.

# %%
# [[code:models.TransformerConfig]]


# [[code:models.init_parameters]]


# [[code:models.DecoderOnlyTransformer]]


# [[code:params.layer_grad_norms]]

# %% [markdown] lang="ko"
# 먼저 두 방식의 차이가 잔차 경로에 있다는 것을 봅시다. 하위 층을 그대로 두고 인코더 블록 6개를
# 쌓은 뒤(파라미터는 패키지 모델과 같은 `init_parameters`), 블록을 하나 지날 때마다 출력과 처음 입력의
# 코사인 유사도를 잽니다. 입력의 방향이 얼마나 남아 있는지 알려 주는 값입니다.

# %% [markdown] lang="en"
# First, see that the two placements differ on the residual path. Stack six encoder blocks with
# their sub-layers left alone (parameters initialised with `init_parameters`, like the package's
# models) and, after each block, measure the cosine similarity between the output and the original
# input: how much of the input's direction is left.

# %%
x = torch.randn(2, 5, 64)
for norm_first in (False, True):
    torch.manual_seed(1)
    stack = nn.ModuleList(EncoderLayer(64, 4, 128, norm_first=norm_first) for _ in range(6))
    init_parameters(stack)
    h, cosines = x, []
    with torch.no_grad():
        for b in stack:
            h, _ = b(h)
            cosines.append(F.cosine_similarity(h.flatten(), x.flatten(), dim=0).item())
    name = "pre-LN " if norm_first else "post-LN"
    print(name, "cosine(output, input) after blocks 1..6:", [round(c, 2) for c in cosines])

# %% [markdown] lang="ko"
# Pre-LN의 출력에는 $x$ 자체가 더하기의 한 항으로 끝까지 남아 있습니다. Post-LN에서는 하위 층마다
# 합을 다시 정규화하므로, 처음 입력의 몫이 층을 지날 때마다 더 빨리 줄어듭니다.
#
# 이제 초기화 직후의 기울기입니다. 모델은 강의의 실험과 같습니다. 디코더만 있는 모델 6층, $D$ = 64,
# 헤드 4개, $d_{ff}$ = 128, 학습하는 위치 임베딩입니다. 과제도 강의와 같은 복사입니다. 무작위 숫자
# 8개, 구분 기호, 같은 숫자 8개를 이어 붙이고, 뒤쪽 절반의 손실만 셉니다. 토큰 0은 패딩, 1은 구분
# 기호, 숫자 $d$는 토큰 $d + 2$입니다. 두 방식은 같은 시드에서 출발하고(층 정규화는 난수를 쓰지
# 않으므로 파라미터가 같습니다) 같은 배치를 봅니다. 초기화 8개의 평균을 내고, 학습은 하지 않습니다.
# 초기화마다 역전파 한 번이면 됩니다.
#
# 아래 셀의 앞부분은 패키지의 복사 과제 `tutorial_code/tasks/copying.py`에서 가져온 것입니다. 토큰
# 번호, 복사 배치를 만드는 `copy_batch`, 뒤쪽 절반의 손실 `copy_loss`입니다. 그 아래의 `make_model`과
# `grads_at_init`은 강의의 실험(`tutorial_code/experiments/norm_placement.py`)이 하는 일을 실험의
# 기본값으로 적은 것입니다. 시드가 같으므로 강의의 표와 같은 숫자가 나옵니다.

# %% [markdown] lang="en"
# In pre-LN, $x$ itself is still one of the terms of the output's sum. Post-LN normalises the sum
# again after every sub-layer, so the original input's share shrinks faster from layer to layer.
#
# Now the gradients right after initialisation, in the model of the lesson's experiment:
# decoder-only, 6 layers, $D$ = 64, 4 heads, $d_{ff}$ = 128, learned position embeddings. The task
# is the lesson's copying task too: 8 random digits, a separator, the same 8 digits again, with the
# loss counted on the second half only. Token 0 is padding, 1 the separator, digit $d$ the token
# $d + 2$. Both placements start from the same seed (LayerNorm draws no random numbers, so their
# parameters are equal) and see the same batch. We average over 8 initialisations and train nothing:
# one backward pass per initialisation is all it takes.
#
# The first part of the next cell comes from the package's copying task,
# `tutorial_code/tasks/copying.py`: the token numbers, `copy_batch` that makes a copying batch and
# `copy_loss` for the loss on the second half. Below them, `make_model` and `grads_at_init` write
# out what the lesson's experiment (`tutorial_code/experiments/norm_placement.py`) does, with the
# experiment's defaults; with the same seeds they give the numbers of the lesson's table.

# %%
# [[code:tasks.copying.copy_batch]]


# [[code:tasks.copying.copy_loss]]


# ko: 강의 실험의 기본값(tutorial_code/experiments/norm_placement.py의 Config)
# en: the lesson's experiment defaults (its Config in tutorial_code/experiments/norm_placement.py)
N_LAYERS, D_MODEL, N_HEADS, D_FF = 6, 64, 4, 128
N_DIGITS = 8  # ko: 복사할 숫자 # en: digits to copy
INIT_SEEDS, INIT_BATCH = 8, 256  # ko: 평균 낼 초기화 수, 그 배치의 시퀀스 수 # en: initialisations averaged, sequences in their batch


def make_model(norm_first: bool, seed: int, n_layers: int = N_LAYERS) -> DecoderOnlyTransformer:
    # ko: 두 방식에 같은 초기 파라미터: 시드를 고정하고, 층 정규화는 난수를 쓰지 않습니다
    # en: the same initial parameters for both placements: seeded, and LayerNorm draws no numbers
    torch.manual_seed(seed)
    cfg = TransformerConfig(vocab_size=VOCAB_SIZE, d_model=D_MODEL, n_heads=N_HEADS, d_ff=D_FF,
                            n_layers=n_layers, norm_first=norm_first, position="learned",
                            max_len=2 * N_DIGITS)
    return DecoderOnlyTransformer(cfg)


def grads_at_init(norm_first: bool, n_layers: int = N_LAYERS) -> list[list[float]]:
    # ko: 고정된 배치 하나에서, 초기화마다 역전파 한 번 하고 층별 기울기 노름을 잽니다
    # en: one fixed batch; per initialisation, one backward pass and the per-layer gradient norms
    x, y = copy_batch(INIT_BATCH, N_DIGITS, torch.Generator().manual_seed(7))
    out = []
    for seed in range(INIT_SEEDS):
        model = make_model(norm_first, seed, n_layers)
        copy_loss(model, x, y, N_DIGITS).backward()
        out.append(layer_grad_norms(model))
    return out  # ko: (초기화, 층) # en: (inits, layers)


inputs, targets = copy_batch(2, N_DIGITS, torch.Generator().manual_seed(0))
print("inputs: ", inputs[0].tolist())  # ko: x SEP x에서 마지막 토큰을 뺀 것 # en: x SEP x without its last token
print("targets:", targets[0].tolist())  # ko: 한 칸 밀린 다음 토큰 # en: the next tokens, shifted by one

grads = {}
for name, norm_first in (("post", False), ("pre", True)):
    runs = torch.tensor(grads_at_init(norm_first))  # ko: (시드, 층) # en: (seeds, layers)
    grads[name] = runs.mean(0)
print("layer   post-LN   pre-LN   post/pre")
for i, (p, q) in enumerate(zip(grads["post"], grads["pre"]), 1):
    print(f"{i:5d}   {p:7.3f}   {q:6.3f}   {p / q:8.2f}")
for name in grads:
    print(f"{name}-LN: top layer / bottom layer = {grads[name][-1] / grads[name][0]:.2f}")
print(f"post-LN / pre-LN, all layers summed = {grads['post'].sum() / grads['pre'].sum():.2f}")

fig, ax = plt.subplots(figsize=(5, 3))
layers = range(1, len(grads["post"]) + 1)
ax.plot(layers, grads["post"], "o-", color="tab:orange", label="Post-LN")
ax.plot(layers, grads["pre"], "s-", color="tab:blue", label="Pre-LN")
ax.set_ylim(bottom=0)
ax.set_xlabel("층 (1 = 입력 쪽)")  # ko
ax.set_xlabel("layer (1 = input side)")  # en
ax.set_ylabel("기울기 노름 (초기화 8개 평균)")  # ko
ax.set_ylabel("gradient norm (mean of 8 inits)")  # en
ax.set_title("초기화 직후 층별 기울기")  # ko
ax.set_title("Per-layer gradients at initialisation")  # en
ax.legend()
plt.show()

# %% [markdown] lang="ko"
# 강의의 "초기화 직후" 표, 그림과 비교해 보세요. Post-LN은 출력 쪽으로 갈수록 커지고, Pre-LN은
# 작아집니다. 모두 더하면 Post-LN이 더 큽니다.
#
# ## 해 보기
#
# - `grads_at_init(norm_first)`를 `grads_at_init(norm_first, n_layers=2)`나 `n_layers=12`로 바꿔 보세요. 두 선의 기울어짐이
#   깊이에 따라 어떻게 달라지나요?
# - 기준 블록의 `d_ff`를 $4D$ = 256으로 바꾸고 파라미터 비율을 다시 세어 보세요. 어텐션과 피드포워드
#   신경망 중 어느 쪽이 무거워지나요?
# - `make_model(False, 0)`으로 만든 Post-LN 모델과 `make_model(True, 0)`으로 만든 Pre-LN 모델을
#   Adam(학습률 0.007)으로 웜업 없이 200스텝쯤 학습시켜 두 손실을 비교해 보세요. 배치는 스텝마다
#   `copy_batch(32, N_DIGITS, gen)`으로 새로 뽑고, 손실은 `copy_loss`로 잽니다. 찍기 수준은
#   $\log 10 \approx 2.30$입니다. 강의의 학습 실험과 같은 결과가 나오나요?

# %% [markdown] lang="en"
# Compare with the lesson's table and figure for the gradients at initialisation: post-LN's grow
# towards the output, pre-LN's shrink, and post-LN's are larger in total.
#
# ## Try it
#
# - Change `grads_at_init(norm_first)` to `grads_at_init(norm_first, n_layers=2)` or `n_layers=12`. How does the tilt of
#   the two lines change with depth?
# - Set the reference block's `d_ff` to $4D$ = 256 and count the shares again. Which side gets
#   heavier, attention or the feed-forward network?
# - Train a post-LN model from `make_model(False, 0)` and a pre-LN model from `make_model(True, 0)`
#   with Adam (learning rate 0.007) and no warm-up for about 200 steps, and compare their losses. Draw a fresh
#   batch every step with `copy_batch(32, N_DIGITS, gen)` and compute the loss with
#   `copy_loss`. Guessing scores $\log 10 \approx 2.30$. Do you see what the lesson's training
#   experiment found?
