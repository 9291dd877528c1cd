# %% [markdown] lang="ko"
# # 8강 실습: 인코더, 디코더, 그리고 세 가지 변형
#
# 이 노트북은 강좌 패키지의 마스크와 모델을 그대로 가져와 작은 예제로 돌려 봅니다. 목표는 네 가지입니다.
#
# 1. 패딩 마스크, 인과 마스크, 둘을 합친 마스크를 0/1 격자로 찍어 누가 누구를 볼 수 있는지 봅니다.
# 2. 인코더 전용, 디코더 전용, 인코더–디코더를 같은 부품으로 만들고 어텐션 가중치의 모양을 비교합니다.
# 3. 작은 인코더–디코더에게 숫자 8개 뒤집기를 몇 초 동안 학습시키고, 그리디 디코딩(단계마다 확률이 가장
#    높은 토큰을 골라 쓰는 방법)으로 써 보게 합니다.
# 4. 크로스 어텐션에서 반대 대각선을 찾습니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 8 lab: Encoder, decoder and the three variants
#
# This notebook takes the course package's masks and models as they are and runs them on small
# examples. Four goals:
#
# 1. Print the padding mask, the causal mask and the two combined as 0/1 grids, to see who may see
#    whom.
# 2. Build an encoder-only, a decoder-only and an encoder–decoder model from the same parts and
#    compare the shapes of their attention weights.
# 3. Train a small encoder–decoder to reverse 8 digits for a few seconds and let it write with
#    greedy decoding (writing the most probable token at each step).
# 4. Find the anti-diagonal in its cross-attention.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom.

# %%
from __future__ import annotations

import math
import time
from dataclasses import dataclass

import matplotlib.pyplot as plt
import torch
import torch.nn.functional as F
from matplotlib.ticker import FuncFormatter
from torch import Tensor, nn

torch.manual_seed(0)
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 패키지의 마스크
#
# 아래 세 함수는 강좌 패키지 `tutorial_code/masks.py`의 함수와 한 글자도 다르지 않습니다. 이
# 패키지에서 마스크의 `True`는 "볼 수 있다"입니다.

# %% [markdown] lang="en"
# ## The package's masks
#
# The three functions below are those of the course package, `tutorial_code/masks.py`, word for
# word. In this package a mask's `True` means "may attend".

# %%
# [[code:masks.causal_mask]]


# [[code:masks.padding_mask]]


# [[code:masks.combine_masks]]

# %% [markdown] lang="ko"
# ## 세 가지 마스크
#
# 토큰 번호는 강의의 실험과 같습니다. 0은 패딩(PAD), 1은 BOS, 2는 EOS이고 숫자 $d$는 토큰 $d + 3$입니다.
# 숫자를 토큰으로 바꾸는 `frame`, 토큰을 읽기 쉬운 이름으로 바꾸는 `token_names`, 목표 숫자(뒤집기나
# 크기순으로 늘어놓기)를 만드는 `target_digits` 같은 도우미 함수도 과제 코드 `tutorial_code/tasks/digits.py`에서
# 그대로 가져옵니다. 길이가 다른 원문 두 개를 한 배치에 넣으려고 짧은 쪽 뒤에 PAD를 붙입니다. 격자의
# 행은 쿼리, 열은 키이고, 1은 "볼 수 있다", 0은 "가려짐"입니다.

# %% [markdown] lang="en"
# ## The three masks
#
# The token ids are those of the lesson's experiment: 0 is padding (PAD), 1 is BOS, 2 is EOS,
# and digit $d$ is the token $d + 3$. The helpers, such as `frame` (digits to tokens),
# `token_names` (tokens to readable names) and `target_digits` (the target digits: reversed or
# sorted), come unchanged from the task's code, `tutorial_code/tasks/digits.py`.
# To put two sources of different lengths in one batch, the shorter one gets PAD at the end. In
# the grids, rows are queries and columns keys; 1 means "may attend", 0 "blocked".

# %%
# [[code:tasks.digits.PAD]]
# [[code:tasks.digits.VOCAB_SIZE]]
# [[code:tasks.digits.token_names]]


# [[code:tasks.digits.frame]]


# [[code:tasks.digits.target_digits]]


# [[code:tasks.digits.sequence_keys]]


# [[code:tasks.digits.mirror_index]]

# %%
def show(mask: Tensor, rows: list[str], cols: list[str]) -> None:
    print("      " + "".join(f"{c:>4}" for c in cols))
    for r, line in zip(rows, mask.int().tolist()):
        print(f"{r:>5} " + "".join(f"{v:>4}" for v in line))


short = F.pad(frame(torch.tensor([[3, 7, 1]])), (0, 2), value=PAD)  # ko: (1, 7), PAD 두 개 # en: (1, 7), two PADs
tokens = torch.cat([short, frame(torch.tensor([[4, 9, 2, 8, 5]]))])  # ko: (B, L) = (2, 7) # en: (B, L) = (2, 7)
labels = token_names(tokens[0])
pad = padding_mask(tokens, PAD)  # ko: (B, 1, 1, L) # en: (B, 1, 1, L)
causal = causal_mask(tokens.size(1))  # ko: (L, L) # en: (L, L)
both = combine_masks(pad, causal)  # ko: (B, 1, L, L) # en: (B, 1, L, L)
print("shapes: padding", tuple(pad.shape), " causal", tuple(causal.shape), " combined", tuple(both.shape))
print("\npadding mask of the first sequence (every query gets the same row):")
show(pad[0, 0].expand(len(labels), -1), labels, labels)
print("\ncausal mask:")
show(causal, labels, labels)
print("\ncombined, first sequence:")
show(both[0, 0], labels, labels)
print("\nrows of the real tokens: combined == causal?", torch.equal(both[0, 0, :5], causal[:5]))

# %% [markdown] lang="ko"
# 인코더는 패딩 마스크만 씁니다. 모든 토큰이 PAD가 아닌 토큰을 전부 봅니다. 디코더는 인과 마스크를
# 씁니다. 마지막 줄을 보세요. PAD가 뒤에 붙어 있으면 진짜 토큰의 행은 합친 마스크와 인과 마스크가
# 같습니다. 인과 마스크만으로도 진짜 토큰은 뒤쪽의 PAD를 보지 못하기 때문입니다. 그래서 패키지의
# 디코더(`future_mask`)는 인과 마스크만 씁니다.

# %% [markdown] lang="en"
# The encoder uses the padding mask alone: every token sees every token that is not PAD. The
# decoder uses the causal mask. Look at the last line: with PAD at the end, the rows of the real
# tokens are the same in the combined and the causal mask, because the causal mask alone already
# keeps real tokens from seeing the PAD behind them. That is why the package's decoder
# (`future_mask`) uses the causal mask only.

# %% [markdown] lang="ko"
# ## 패키지의 모델
#
# 세 가지 변형과 그리디 디코딩에 필요한 코드를 모두 가져옵니다. 3강의 어텐션, 5강의 멀티헤드, 6강의
# 위치 인코딩, 7강의 블록 위에 이번 강의의 `Encoder`, `Decoder`, 세 모델 클래스, 그리고
# `greedy_decode`가 올라갑니다.

# %% [markdown] lang="en"
# ## The package's models
#
# Everything the three variants and greedy decoding need comes in here: lesson 3's attention,
# lesson 5's multi-head attention, lesson 6's positional encodings and lesson 7's blocks, with this
# lesson's `Encoder`, `Decoder`, the three model classes and `greedy_decode` on top.

# %%
# [[code:models.Encoder]]


# [[code:models.Decoder]]


# [[code:models.EncoderDecoderTransformer]]


# [[code:models.EncoderOnlyTransformer]]


# [[code:models.DecoderOnlyTransformer]]


# [[code:generate.greedy_decode]]

# %% [markdown] lang="ko"
# ## 세 가지 변형, 같은 부품
#
# 같은 설정으로 세 모델을 만들고, 강의의 원문 [BOS, 3, 7, 1, 4, 9, 2, 8, 5, EOS]와 한 칸 민 목표를
# 넣어 어텐션 가중치의 모양을 봅니다. 강의의 "누가 누구를 보는가" 표와 비교해 보세요. 폭은
# $D$ = 32로 강의 모델($D$ = 64)의 절반입니다. 이 노트북에서 몇 초 만에 학습하도록 줄였습니다.

# %% [markdown] lang="en"
# ## Three variants, the same parts
#
# Build the three models from one config, feed them the lesson's source [BOS, 3, 7, 1, 4, 9, 2,
# 8, 5, EOS] and the target shifted by one, and look at the shapes of the attention weights.
# Compare with the lesson's "who sees whom" table. The width is $D$ = 32, half the lesson's model
# ($D$ = 64), so that it trains in seconds in this notebook.

# %%
cfg = TransformerConfig(vocab_size=VOCAB_SIZE, d_model=32, n_heads=4, d_ff=64, n_layers=2)
example = torch.tensor([[3, 7, 1, 4, 9, 2, 8, 5]])  # ko: 강의의 숫자 8개 # en: the lesson's 8 digits
src = frame(example)  # ko: (1, 10) # en: (1, 10)
tgt = frame(target_digits(example, "reverse"))  # ko: 뒤집은 목표 # en: the reversed target
dec_in = tgt[:, :-1]  # ko: 교사 강요: 한 칸 민 목표 (1, 9) # en: teacher forcing: the target shifted by one (1, 9)
print("source       ", token_names(src[0]))
print("decoder input", token_names(dec_in[0]))
print("labels       ", token_names(tgt[0, 1:]))

variants = {
    "encoder-only": (EncoderOnlyTransformer(cfg), lambda m: m(src, return_attention=True)),
    "decoder-only": (DecoderOnlyTransformer(cfg), lambda m: m(dec_in, return_attention=True)),
    "encoder-decoder": (EncoderDecoderTransformer(cfg), lambda m: m(src, dec_in, return_attention=True)),
}
for name, (model, run) in variants.items():
    with torch.no_grad():
        logits, att = run(model)
    print(f"\n{name}: {sum(p.numel() for p in model.parameters()):,} parameters, logits {tuple(logits.shape)}")
    for kind, ws in att.items():
        note = ""
        if kind == "decoder_self":
            note = f"  (weight above the diagonal: {ws[0].triu(1).abs().max().item():.1f})"
        print(f"  {kind:13s} per layer {tuple(ws[0].shape)}{note}")

# %% [markdown] lang="ko"
# 인코더 전용과 디코더 전용 모델은 파라미터 수가 같습니다. 크로스 어텐션이 없는 디코더 층은 인코더
# 층과 부품이 같고, 다른 것은 마스크 하나뿐이기 때문입니다. 디코더 셀프 어텐션의 대각선 위 가중치는
# 0입니다. 인과 마스크가 미래를 가립니다. 크로스 어텐션의 가중치는 $(B, h, L_t, L_s)$ = (1, 4, 9, 10)이고,
# 목표의 위치마다 원문 전체를 봅니다.
#
# ## 숫자 뒤집기를 학습시키기
#
# 이제 인코더–디코더를 학습시킵니다. 학습 배치는 매번 새로 뽑은 무작위 숫자 8개짜리 시퀀스 64개입니다.
# Adam과 원사이클 스케줄(최대 학습률 0.005)로 300스텝, 시퀀스 19,200개를 봅니다. 학습에 쓰지 않은
# 테스트 시퀀스 500개는 따로 뽑아 두고, 학습 배치와 겹친 것이 있는지 셉니다.

# %% [markdown] lang="en"
# The encoder-only and decoder-only models have the same number of parameters: a decoder layer
# without cross-attention has the same parts as an encoder layer, and only the mask differs. The
# decoder's self-attention has zero weight above the diagonal: the causal mask hides the future.
# The cross-attention weights are $(B, h, L_t, L_s)$ = (1, 4, 9, 10): each target position looks at
# the whole source.
#
# ## Training the digit reversal
#
# Now we train the encoder–decoder. Each training batch holds 64 freshly drawn sequences of 8 random
# digits. Adam with a one-cycle schedule (peak learning rate 0.005) runs 300 steps and sees 19,200
# sequences. 500 test sequences, never trained on, are drawn apart, and we count any that turn up in
# the training batches.

# %%
TASK = "reverse"  # ko: 과제: 뒤집기 # en: the task: reversal
STEPS, BATCH, N_DIGITS = 300, 64, 8
test_digits = torch.randint(0, 10, (500, N_DIGITS), generator=torch.Generator().manual_seed(2))
test_src, test_tgt = frame(test_digits), frame(target_digits(test_digits, TASK))
test_keys = sequence_keys(test_digits)  # ko: 숫자 8개를 정수 하나로 읽어 시퀀스를 구별 # en: the 8 digits read as one integer that identifies the sequence

torch.manual_seed(0)
model = EncoderDecoderTransformer(cfg)
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=5e-3, total_steps=STEPS)
gen = torch.Generator().manual_seed(1)
losses, overlap = [], 0
start = time.perf_counter()
for step in range(STEPS):
    digits = torch.randint(0, 10, (BATCH, N_DIGITS), generator=gen)
    overlap += int(torch.isin(sequence_keys(digits), test_keys).sum())
    src_b, tgt_b = frame(digits), frame(target_digits(digits, TASK))
    logits = model(src_b, tgt_b[:, :-1])  # ko: 교사 강요: 모든 위치를 한 번에 # en: teacher forcing: every position at once
    loss = F.cross_entropy(logits.flatten(0, 1), tgt_b[:, 1:].flatten(), ignore_index=PAD)
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    losses.append(loss.item())
    if step % 50 == 0 or step == STEPS - 1:
        print(f"step {step:3d}  loss {loss.item():.4f}")
print(f"training took {time.perf_counter() - start:.1f} s; test sequences seen in training: {overlap}")

fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(losses)
ax.set_yscale("log")
ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}"))  # ko: 10의 거듭제곱 대신 보통 숫자로 # en: plain numbers, not powers of ten
ax.set_xlabel("학습 스텝")  # ko
ax.set_xlabel("training step")  # en
ax.set_ylabel("교차 엔트로피 손실")  # ko
ax.set_ylabel("cross-entropy loss")  # en
ax.set_title("숫자 뒤집기 학습 곡선")  # ko
ax.set_title("Learning to reverse digits")  # en
plt.show()

# %% [markdown] lang="ko"
# ## 그리디 디코딩
#
# 학습한 모델에게 강의의 원문을 주고 `greedy_decode`로 한 토큰씩 쓰게 합니다. 인코더는 한 번만 돌고,
# 디코더는 출력 토큰마다 한 번씩 돕니다. 그다음 테스트 시퀀스 500개에서 토큰 정확도와 완전 일치율을
# 잽니다. 강의의 학습 결과와 비교해 보세요.

# %% [markdown] lang="en"
# ## Greedy decoding
#
# Give the trained model the lesson's source and let `greedy_decode` write one token at a time: the
# encoder runs once, the decoder once per output token. Then measure token accuracy and exact match
# on the 500 test sequences. Compare with the lesson's training results.

# %%
written = greedy_decode(model, src, BOS, max_new_tokens=9, eos_id=EOS)
print("source ", token_names(src[0]))
print("written", token_names(written[0]))
out = greedy_decode(model, test_src, BOS, max_new_tokens=9, eos_id=EOS)  # ko: (500, 10) # en: (500, 10)
out = F.pad(out, (0, test_tgt.size(1) - out.size(1)), value=PAD)  # ko: 일찍 끝난 경우 대비 # en: in case every row ended early
hits = out[:, 1:] == test_tgt[:, 1:]
print(f"test: token accuracy {hits.float().mean():.1%}, exact match {hits.all(1).float().mean():.1%}")

# %% [markdown] lang="ko"
# ## 반대 대각선 읽기
#
# 교사 강요로 강의의 원문을 한 번 더 넣고, 마지막 층 크로스 어텐션을 헤드 평균으로 그립니다. 행은
# 디코더 입력(방금 읽은 토큰), 열은 원문 토큰입니다. 행 $i$가 봐야 할 곳은 다음에 쓸 숫자, 곧 원문의
# 거울 위치입니다. 그 칸에 준 가중치를 층마다 평균 내어, 고르게 나눌 때의 $1/10$과 비교합니다.

# %% [markdown] lang="en"
# ## Reading the anti-diagonal
#
# Feed the lesson's source once more with teacher forcing and draw the last layer's
# cross-attention, averaged over the heads. Rows are the decoder inputs (the token just read),
# columns the source tokens. Row $i$ should look at the digit it writes next: the mirrored source
# position. Average the weight on those cells per layer and compare it with an even split, $1/10$.

# %%
model.eval()
dec_in = frame(target_digits(example, TASK))[:, :-1]  # ko: 교사 강요: 이번 과제의 목표를 한 칸 밀어 # en: teacher forcing: this task's target shifted by one
with torch.no_grad():
    _, att = model(src, dec_in, return_attention=True)
    _, test_att = model(test_src, test_tgt[:, :-1], return_attention=True)
rows = torch.arange(N_DIGITS)  # ko: 숫자를 쓰는 쿼리 0..7 (마지막 쿼리는 EOS를 씀) # en: the queries 0..7 that write a digit (the last writes EOS)
mirror = mirror_index(N_DIGITS)  # ko: 쿼리 i가 볼 원문 위치 8-i (위치 0은 BOS) # en: source position 8-i for query i (position 0 is BOS)
for layer, (w, tw) in enumerate(zip(att["cross"], test_att["cross"]), 1):
    example = w[0, :, rows, mirror].mean().item()
    average = tw[:, :, rows, mirror].mean().item()
    print(f"layer {layer}: weight on the mirrored position {example:.2f} (this example), "
          f"{average:.2f} (500 test sequences); even split {1 / src.size(1):.2f}")

w = att["cross"][-1][0].mean(0)  # ko: 헤드 평균 (L_t, L_s) # en: mean over heads (L_t, L_s)
fig, ax = plt.subplots(figsize=(4.5, 4))
ax.imshow(w, cmap="Blues", vmin=0, vmax=1)
ax.set_xticks(range(src.size(1)), token_names(src[0]))
ax.set_yticks(range(dec_in.size(1)), token_names(dec_in[0]))
ax.set_xlabel("원문 토큰 (키)")  # ko
ax.set_xlabel("source token (key)")  # en
ax.set_ylabel("디코더 입력 (쿼리)")  # ko
ax.set_ylabel("decoder input (query)")  # en
ax.set_title("마지막 층 크로스 어텐션 (헤드 평균)")  # ko
ax.set_title("Last layer's cross-attention (mean of heads)")  # en
plt.show()

# %% [markdown] lang="ko"
# 진한 칸이 오른쪽 위에서 왼쪽 아래로 이어집니다. 아무도 "거울 위치를 보라"고 가르치지 않았습니다.
# 강의의 어텐션 그림과 비교해 보세요. 맨 아래 줄은 EOS를 쓰는 위치라서 거울 위치가 없습니다.
#
# ## 해 보기
#
# - 학습 셀의 `TASK`를 `"sort"`로 바꿔 뒤집기 대신 크기순으로 늘어놓기를 학습시켜 보세요. 볼 위치가 내용에
#   따라 달라지면 크로스 어텐션은 어떤 모양이 되나요? (5강의 헤드 실험과 같은 과제입니다.)
# - `STEPS`를 100으로 줄여 보세요. 완전 일치율과 반대 대각선이 어떻게 달라지나요? 토큰 정확도와 완전
#   일치율 중 어느 쪽이 먼저 무너지나요?
# - `greedy_decode`에 `use_cache=False`를 넘겨 결과가 같은지 확인해 보세요. 캐시가 무엇을 아껴 주는지는
#   9강에서 봅니다.

# %% [markdown] lang="en"
# The dark cells run from top right to bottom left. Nobody taught the model to "look at the
# mirrored position". Compare with the lesson's attention figures. The bottom row writes EOS, so it
# has no mirrored position.
#
# ## Try it
#
# - Set `TASK` in the training cell to `"sort"` to learn sorting instead of reversal. When where
#   to look depends on the content, what shape does the cross-attention take? (It is the task of
#   the heads experiment in lesson 5.)
# - Cut `STEPS` to 100. How do the exact match and the anti-diagonal change? Which breaks down
#   first, token accuracy or exact match?
# - Pass `use_cache=False` to `greedy_decode` and check that the output is the same. What the cache
#   saves is the subject of lesson 9.
