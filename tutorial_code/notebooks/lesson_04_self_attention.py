# %% [markdown] lang="ko"
# # 4강 실습: 셀프 어텐션
#
# 이 노트북은 4강의 계산을 직접 돌려 보고, 숫자를 바꿔 가며 확인합니다. 목표는 네 가지입니다.
#
# 1. 손으로 정한 단어 벡터와 $W_Q$로 다섯 단어 문장의 셀프 어텐션을 계산하고, 가중치를 강의의 표와
#    비교합니다. 규칙이 어디서 빗나가는지도 봅니다.
# 2. $Q$, $K$, $V$가 모두 같은 입력 $X$에서 $W_Q$, $W_K$, $W_V$를 거쳐 나온다는 것을 모양과 함께 확인합니다.
# 3. 단어 순서를 섞으면 출력의 행도 똑같이 섞일 뿐이라는 것을 `torch.allclose`로 확인합니다. 위치 인코딩을
#    더하면 이 성질이 깨집니다. 6강으로 이어지는 이야기입니다.
# 4. 인과 마스크가 대각선 위의 가중치를 정확히 0으로 만드는 것을 봅니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 4 lab: Self-attention
#
# This notebook runs the computations of lesson 4 and lets you change the numbers. Four goals:
#
# 1. Compute the self-attention of the five-word sentence from hand-set word vectors and $W_Q$,
#    compare the weights with the lesson's table, and see where the rule goes wrong.
# 2. Check, shapes included, that $Q$, $K$ and $V$ all come from the same input $X$ through $W_Q$,
#    $W_K$ and $W_V$.
# 3. Check with `torch.allclose` that shuffling the words only shuffles the rows of the output the
#    same way; adding a positional encoding breaks this, which leads to lesson 6.
# 4. See the causal mask make every weight above the diagonal exactly 0.
#
# It needs only torch, numpy and matplotlib. Run the cells from top to bottom.

# %%
from __future__ import annotations

import math

import matplotlib.pyplot as plt
import torch
from torch import Tensor

torch.manual_seed(0)
plt.rcParams["figure.dpi"] = 80

# %% [markdown] lang="ko"
# ## 패키지의 함수
#
# 아래 함수들은 강좌 패키지의 코드 그대로입니다. 3강의 `scaled_dot_product_attention`과
# 그 함수가 부르는 `check_mask`, 강의의 "코드" 절에 나온 `causal_mask`, 그리고 6강을 미리 보려고 가져온
# `sinusoidal_table`(과 그 함수가 부르는 `check_positive`)입니다.

# %% [markdown] lang="en"
# ## The package's functions
#
# The functions below are the course package's code as it stands:
# `scaled_dot_product_attention` from lesson 3 and the `check_mask` it calls, `causal_mask` from
# the lesson's "Code" section, and, as a preview of lesson 6, `sinusoidal_table` (with the
# `check_positive` it calls).

# %%
# [[code:attention.scaled_dot_product_attention]]


# [[code:masks.causal_mask]]


# [[code:position.sinusoidal_table]]

# %% [markdown] lang="ko"
# ## 셀프 어텐션: 세 역할이 한 입력에서
#
# 셀프 어텐션은 3강의 식과 같습니다. 다른 점은 $Q$, $K$, $V$가 모두 같은 입력 $X$에서 나온다는 것뿐입니다.
# $Q = XW_Q$, $K = XW_K$, $V = XW_V$. 아래 함수가 그 한 줄입니다.

# %% [markdown] lang="en"
# ## Self-attention: three roles from one input
#
# Self-attention is the formula of lesson 3; the only difference is that $Q$, $K$ and $V$ all come
# from the same input $X$: $Q = XW_Q$, $K = XW_K$, $V = XW_V$. The function below is that one line.

# %%
def self_attention(X: Tensor, W_Q: Tensor, W_K: Tensor, W_V: Tensor, mask: Tensor | None = None):
    # ko: X (L, D), W_* (D, d_k) → 출력 (L, d_k), 가중치 (L, L)
    # en: X (L, D), W_* (D, d_k) → output (L, d_k), weights (L, L)
    return scaled_dot_product_attention(X @ W_Q, X @ W_K, X @ W_V, mask)

# %% [markdown] lang="ko"
# ## 손으로 정한 다섯 단어
#
# 강의와 같은 입력입니다. 특성은 [동물, 음식, 동작, 지시어] 네 가지이고, '그'와 '이'의 벡터는 똑같습니다.
# $W_Q$의 규칙은 "지시어는 음식을 찾고, 동작은 동물을 찾는다" 두 줄이고, $W_K$와 $W_V$는 단위행렬입니다.
# 모든 계산은 float64로 합니다.

# %% [markdown] lang="en"
# ## Five hand-set words
#
# The same inputs as in the lesson. The features are [animal, food, action, demonstrative], and
# "that" and "this" have exactly the same vector. $W_Q$ holds the two-line rule "a demonstrative
# looks for food, an action looks for an animal"; $W_K$ and $W_V$ are the identity. Everything is
# computed in float64.

# %%
vectors = {"that": [0, 0, 0, 1], "cat": [1, 0, 0, 0], "this": [0, 0, 0, 1], "fish": [0, 1, 0, 0], "ate": [0, 0, 1, 0]}
order = ["that", "cat", "this", "fish", "ate"]  # ko
order = ["that", "cat", "ate", "this", "fish"]  # en
label = {"that": "그", "cat": "고양이가", "this": "이", "fish": "생선을", "ate": "먹었다"}  # ko
label = {"that": "that", "cat": "cat", "this": "this", "fish": "fish", "ate": "ate"}  # en
STRENGTH = 6.0  # ko: W_Q에 손으로 넣는 두 값 # en: the two hand-set entries of W_Q

X = torch.tensor([vectors[w] for w in order], dtype=torch.float64)  # (L, D) = (5, 4)
W_Q = torch.zeros(4, 4, dtype=torch.float64)
W_Q[3, 1] = STRENGTH  # ko: 지시어 → 음식을 찾는다 # en: demonstrative → looks for food
W_Q[2, 0] = STRENGTH  # ko: 동작 → 동물을 찾는다 # en: action → looks for an animal
I = torch.eye(4, dtype=torch.float64)  # ko: W_K = W_V = 단위행렬 # en: W_K = W_V = identity

out, w = self_attention(X, W_Q, I, I)
names = [label[word] for word in order]
print("keys:", " ".join(names))
for name, row in zip(names, w):
    print(" ".join(f"{x:.3f}" for x in row.tolist()), " ←", name)
print("row sums:", [round(x, 6) for x in w.sum(-1).tolist()])

fig, ax = plt.subplots(figsize=(4.6, 3.8))
ax.imshow(w, cmap="Blues", vmin=0, vmax=1)
for i in range(len(order)):
    for j in range(len(order)):
        ax.text(j, i, f"{w[i, j]:.2f}", ha="center", va="center", color="white" if w[i, j] > 0.5 else "black")
ax.set_xticks(range(len(order)), names)
ax.set_yticks(range(len(order)), names)
ax.set_xlabel("키 (보이는 단어)")  # ko
ax.set_xlabel("key (the word looked at)")  # en
ax.set_ylabel("쿼리 (보는 단어)")  # ko
ax.set_ylabel("query (the word looking)")  # en
ax.set_title("셀프 어텐션 가중치")  # ko
ax.set_title("Self-attention weights")  # en
plt.show()

# %% [markdown] lang="ko"
# 강의의 가중치 표와 같은지 비교해 보세요. 그리고 다음 셀에서 '이'의 줄을 강의의 손 계산처럼 단계별로
# 따라가 봅니다. '먹었다'의 출력에서 동물 성분이 가장 커졌는지도 확인합니다.

# %% [markdown] lang="en"
# Compare with the lesson's table of weights. The next cell follows the row of "this" step by step,
# like the lesson's hand computation, and checks that the animal component of the output of "ate"
# is now the largest.

# %%
i = order.index("this")
q = X[i] @ W_Q  # ko: '이'의 쿼리 = W_Q의 4행 # en: the query of "this" = row 4 of W_Q
print("query:", q.tolist())
print("scores:", (X @ q).tolist())
print("scaled:", (X @ q / math.sqrt(X.size(-1))).tolist())  # ko: d_k = 4, √4 = 2 # en: d_k = 4, √4 = 2
print("weights:", [round(x, 3) for x in torch.softmax(X @ q / math.sqrt(X.size(-1)), dim=-1).tolist()])
print("output of", label["ate"], [round(x, 3) for x in out[order.index("ate")].tolist()])

# %% [markdown] lang="ko"
# 히트맵에서 '그'의 줄도 보세요. '그'는 '고양이가'가 아니라 '생선을'을 가장 많이 봅니다. '이'와 벡터가
# 같으니 쿼리도 같고, 가중치 줄도 같을 수밖에 없습니다. 셀프 어텐션은 단어가 **무엇인지**만 보고
# **어디에 있는지**는 모릅니다.
#
# ## 모양 따라가기: 무작위 $W_Q$, $W_K$, $W_V$
#
# 실제 모델에서는 세 행렬 모두 학습됩니다. 여기서는 무작위로 정하고 모양만 따라갑니다. 단어 $L = 6$개,
# 폭 $D = 8$, $d_k = 4$입니다.

# %% [markdown] lang="en"
# Look at the row of "that" in the heatmap too: it attends most to "fish", not to "cat". It has the
# same vector as "this", so the same query and the same row of weights. Self-attention sees
# **what** a word is, not **where** it is.
#
# ## Following the shapes: random $W_Q$, $W_K$, $W_V$
#
# In a real model all three matrices are learned. Here we draw them at random and only follow the
# shapes: $L = 6$ words, width $D = 8$, $d_k = 4$.

# %%
L, D, d_k = 6, 8, 4
gen = torch.Generator().manual_seed(0)
X6 = torch.randn(L, D, generator=gen, dtype=torch.float64)  # (L, D)
W_Q6, W_K6, W_V6 = (torch.randn(D, d_k, generator=gen, dtype=torch.float64) / math.sqrt(D) for _ in range(3))
out6, w6 = self_attention(X6, W_Q6, W_K6, W_V6)
print("X", tuple(X6.shape), " Q, K, V", tuple((X6 @ W_Q6).shape), " weights", tuple(w6.shape), " output", tuple(out6.shape))

# %% [markdown] lang="ko"
# ## 순서를 섞으면 출력의 행도 똑같이 섞인다
#
# 입력의 행(단어)을 순열 `perm`으로 섞어 다시 계산합니다. 새 출력의 $i$번째 행은 원래 출력의
# `perm[i]`번째 행과 같아야 합니다. `torch.allclose`와 최대 차이로 확인하고, 손으로 정한 문장도 다른 언어의
# 어순으로 바꿔 같은 단어끼리 비교합니다. 강의의 "단어를 섞어도 출력은 그대로" 표와 비교해 보세요.

# %% [markdown] lang="en"
# ## Shuffle the rows in, and the rows out are shuffled the same way
#
# Reorder the input rows (the words) by a permutation `perm` and compute again. Row $i$ of the new
# output should equal row `perm[i]` of the old one. We check with `torch.allclose` and the largest
# difference, and put the hand-set sentence into the other language's word order to compare word
# by word. Compare with the table in the lesson's "Shuffling changes nothing".

# %%
perm = torch.randperm(L, generator=gen)
out_s, w_s = self_attention(X6[perm], W_Q6, W_K6, W_V6)
print("perm:", perm.tolist())
print("outputs:", torch.allclose(out_s, out6[perm]), f"largest difference {(out_s - out6[perm]).abs().max().item():.1e}")
print("weights:", torch.allclose(w_s, w6[perm][:, perm]))

# ko: 다른 언어(영어)의 어순
# en: the other language's (Korean) word order
other = ["that", "cat", "ate", "this", "fish"]  # ko
other = ["that", "cat", "this", "fish", "ate"]  # en
p = torch.tensor([order.index(word) for word in other])
out_o, _ = self_attention(X[p], W_Q, I, I)
print(" ".join(label[word] for word in other), "→", torch.allclose(out_o, out[p]), f"{(out_o - out[p]).abs().max().item():.1e}")

# %% [markdown] lang="ko"
# 둘 다 `True`이고 차이는 float64의 반올림 오차 수준입니다. 사실상 0입니다. 이번에는 위치마다 다른 벡터를
# 더합니다. 6강에서 배울 사인파 위치 인코딩입니다. 위치 0, 1, 2, …의 벡터는 단어를 섞어도 그 자리에
# 그대로 있습니다.

# %% [markdown] lang="en"
# Both are `True`, and the difference is float64 rounding, zero for all practical purposes. Now add
# a different vector at each position: the sinusoidal positional encoding of lesson 6. The vectors
# of positions 0, 1, 2, … stay where they are when the words move.

# %%
pe = sinusoidal_table(L, D)  # (L, D)
out_p, _ = self_attention(X6 + pe, W_Q6, W_K6, W_V6)
out_ps, _ = self_attention(X6[perm] + pe, W_Q6, W_K6, W_V6)
print("with positions:", torch.allclose(out_ps, out_p[perm]), f"largest difference {(out_ps - out_p[perm]).abs().max().item():.3f}")

# %% [markdown] lang="ko"
# 이제는 `False`입니다. 같은 단어라도 자리가 바뀌면 출력이 달라집니다. '그'가 바로 뒤의 '고양이가'를 보게
# 하려면 바로 이런 정보가 필요합니다. 6강에서 이어서 다룹니다.
#
# ## 인과 마스크
#
# 위치 $i$가 뒤쪽 위치 $j > i$를 보지 못하게 막습니다. `causal_mask(L)`은 대각선과 그 아래가 `True`인
# $(L, L)$ 불리언 행렬이고, `True`는 "볼 수 있다"입니다. 막힌 칸은 소프트맥스 전에 $-\infty$가 되므로
# 가중치가 정확히 0입니다. 강의의 인과 마스크 그림과 비교해 보세요.

# %% [markdown] lang="en"
# Now it is `False`: the same word gives a different output in a different place. That is exactly
# the information "that" would need to look at "cat", the word right after it; lesson 6 picks it
# up from here.
#
# ## The causal mask
#
# Position $i$ is blocked from every later position $j > i$. `causal_mask(L)` is an $(L, L)$
# boolean matrix, `True` on and below the diagonal, and `True` means "may attend". Blocked cells
# become $-\infty$ before the softmax, so their weights are exactly 0. Compare with the lesson's
# causal-mask figure.

# %%
mask = causal_mask(L)
print(mask.int())
_, w_c = self_attention(X6, W_Q6, W_K6, W_V6, mask=mask)
print("largest weight above the diagonal:", w_c[~mask].max().item())
print("first row:", [round(x, 3) for x in w_c[0].tolist()])
print("row sums:", [round(x, 6) for x in w_c.sum(-1).tolist()])

fig, ax = plt.subplots(figsize=(4, 3.4))
im = ax.imshow(w_c, cmap="Blues", vmin=0, vmax=1)
for i in range(L):
    for j in range(L):
        ax.text(j, i, f"{w_c[i, j]:.2f}", ha="center", va="center", fontsize=8,
                color="white" if w_c[i, j] > 0.5 else "black")
ax.set_xlabel("키 위치 j")  # ko
ax.set_xlabel("key position j")  # en
ax.set_ylabel("쿼리 위치 i")  # ko
ax.set_ylabel("query position i")  # en
ax.set_title("인과 마스크 뒤의 가중치")  # ko
ax.set_title("Weights after the causal mask")  # en
plt.show()

# %% [markdown] lang="ko"
# ## 해 보기
#
# - `STRENGTH`를 2나 20으로 바꿔 보세요. '이'가 '생선을'에 주는 가중치는 어떻게 변하나요? 3강의
#   "왜 √dₖ인가"와 연결해 보세요.
# - `X6`을 넣는 두 호출, 곧 "모양 따라가기" 셀의 `self_attention(X6, …)`과 순서를 섞는 셀의
#   `self_attention(X6[perm], …)`에 모두 `mask=causal_mask(L)`을 넘기고 두 셀을 다시 실행해 보세요.
#   `torch.allclose`가 여전히 `True`인가요? 마스크가 위치에 대해 무엇을 알려 주는지 생각해 보세요.
# - $W_Q$를 어떻게 바꿔도 '그'는 '고양이가'를, '이'는 '생선을'을 보게 만들 수 없는 이유를 설명해 보세요.
#   (힌트: 두 단어의 `X` 행을 비교하세요.)

# %% [markdown] lang="en"
# ## Try it
#
# - Set `STRENGTH` to 2 or 20. How does the weight from "this" to "fish" change? Connect it with
#   "Why √dₖ" in lesson 3.
# - Pass `mask=causal_mask(L)` to the two calls that take `X6`: `self_attention(X6, …)` in the
#   shapes cell and `self_attention(X6[perm], …)` in the shuffle cell, and run both cells again.
#   Is `torch.allclose` still `True`? Think about what the mask tells the model about positions.
# - Explain why no $W_Q$ can make "that" look at "cat" while "this" looks at "fish". (Hint: compare
#   the two words' rows of `X`.)
