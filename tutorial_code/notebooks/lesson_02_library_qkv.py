# %% [markdown] lang="ko"
# # 2강 실습: 도서관 비유로 보는 쿼리, 키, 밸류
#
# 이 노트북은 2강의 작은 도서관을 그대로 만들어 숫자를 직접 계산해 봅니다. 목표는 네 가지입니다.
#
# 1. 쪽지(쿼리), 색인 카드(키), 책 내용(밸류)으로 점수 → 나누기 → 소프트맥스 → 섞기의 네 단계를 따라가고,
#    강의의 표와 숫자를 맞춰 봅니다.
# 2. 손 계산(순수 파이썬)과 패키지의 `scaled_dot_product_attention`이 같은 값을 내는지 확인합니다.
# 3. 쪽지를 조금씩 바꾸면서 가중치와 출력이 어떻게 움직이는지 봅니다. 출력은 언제나 책 내용을 섞은
#    것입니다.
# 4. 마스크로 책 한 권의 가중치를 정확히 0으로 만들어 봅니다.
#
# 필요한 것은 torch, numpy, matplotlib뿐이고, 그래프에 한글을 쓰는 글꼴(koreanize-matplotlib)만 첫 코드 셀이
# 설치합니다. 위에서부터 차례로 실행하세요.

# %% [markdown] lang="en"
# # Lesson 2 lab: Q, K and V through a library
#
# This notebook builds the small library of lesson 2 and computes its numbers for you to poke at.
# Four goals:
#
# 1. Follow the four steps (score → divide → softmax → blend) with the slip (query), the index
#    cards (keys) and the book contents (values), and match the numbers with the lesson's tables.
# 2. Check that the hand computation (plain Python) and the package's
#    `scaled_dot_product_attention` give the same values.
# 3. Turn the slip little by little and watch the weights and the output move. The output is always
#    a blend of the contents.
# 4. Use a mask to make one book's weight exactly 0.
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
# 아래 세 함수는 강좌 패키지 `tutorial_code/attention.py`에 있는 코드 그대로입니다. `attention_by_hand`는 강의의
# "코드" 절에 나온 손 계산으로, 쿼리 하나에 대해 네 단계를 반복문으로 풀어 씁니다. 나머지 둘은
# 어텐션 함수 `scaled_dot_product_attention`과 그 함수가 마스크를 검사할 때 부르는 `check_mask`입니다.

# %% [markdown] lang="en"
# ## The package's functions
#
# The three functions below are the course package's code as it stands in `tutorial_code/attention.py`.
# `attention_by_hand` is the hand computation of the lesson's "Code" section: the four steps for
# one query, written out as loops. The other two are the attention function,
# `scaled_dot_product_attention`, and the `check_mask` it calls to check a mask.

# %%
# [[code:attention.attention_by_hand]]


# [[code:attention.scaled_dot_product_attention]]

# %% [markdown] lang="ko"
# ## 책 세 권짜리 도서관
#
# 강의와 같은 도서관입니다. 벡터의 첫째 성분은 주제 1, 둘째 성분은 주제 2이고, $d_k = 2$입니다. 쪽지
# 두 장을 차례로 들고 가서 네 단계의 숫자를 모두 출력합니다. 강의의 첫 번째 표, 그리고 쪽지 1과 쪽지 2의
# 손 계산과 비교해 보세요.

# %% [markdown] lang="en"
# ## A library of three books
#
# The same library as in the lesson: the first component of every vector is topic 1, the second
# topic 2, and $d_k = 2$. Bring the two slips one after the other and print every number of the
# four steps. Compare with the lesson's first table and its hand computations for slips 1 and 2.

# %%
keys = [[2.0, 0.0], [0.0, 2.0], [1.5, 1.5]]  # ko: 색인 카드 k1, k2, k3 # en: index cards k1, k2, k3
values = [[10.0, 0.0], [0.0, 10.0], [6.0, 6.0]]  # ko: 책 내용 v1, v2, v3 # en: book contents v1, v2, v3
slips = {"q1": [4.0, 0.0], "q2": [1.0, 1.0]}  # ko: 주제 1만 찾는 쪽지, 두 주제가 다 궁금한 쪽지 # en: topic 1 only; curious about both

by_hand = {}
for name, q in slips.items():
    by_hand[name] = r = attention_by_hand(q, keys, values)
    print(f"{name} = {q}")
    print("  1. q·k       ", [round(x, 3) for x in r["dots"]])
    print("  2. q·k/√d_k  ", [round(x, 3) for x in r["scaled"]])
    print("  3. e^x       ", [round(x, 2) for x in r["exps"]], " sum", round(r["exp_sum"], 2))
    print("     weights   ", [round(x, 3) for x in r["weights"]], " sum", round(sum(r["weights"]), 6))
    print("  4. output    ", [round(x, 3) for x in r["output"]])

# %% [markdown] lang="ko"
# 쪽지 1의 출력은 거의 책 1의 내용이지만, 책 3도 조금 섞였습니다. 쪽지 2의 출력은 도서관의 어느 책
# 내용과도 같지 않습니다. 세 권을 섞은 것입니다.
#
# ## 행렬로 한 번에, 패키지 함수로
#
# 실제 모델은 반복문 대신 행렬 곱을 씁니다. 쪽지 두 장을 행으로 쌓으면 $Q$는 `(2, d_k)`, 점수와
# 가중치는 `(2, 3)`, 출력은 `(2, 2)`입니다. 손 계산과 같은 float64로 계산하고, 패키지 함수와 손 계산의
# 가장 큰 차이를 출력합니다. 강의의 "손 계산과 코드 비교" 표와 같은 비교입니다.

# %% [markdown] lang="en"
# Slip 1's output is mostly book 1, with a little of book 3. Slip 2's output matches no book in the
# library: it is a blend of all three.
#
# ## All at once with matrices, and with the package's function
#
# A real model uses matrix products instead of loops. Stack the two slips as rows and $Q$ is
# `(2, d_k)`, the scores and weights `(2, 3)`, the output `(2, 2)`. We compute in float64, like the
# hand computation, and print the largest difference between the package's function and the hand
# computation: the comparison of the lesson's "By hand and by code" table.

# %%
Q = torch.tensor(list(slips.values()), dtype=torch.float64)  # (2, d_k)
K = torch.tensor(keys, dtype=torch.float64)  # (3, d_k)
V = torch.tensor(values, dtype=torch.float64)  # (3, 2)

d_k = Q.size(-1)
scores = Q @ K.T / math.sqrt(d_k)  # ko: (2, 3) 쪽지와 카드가 맞는 정도 # en: (2, 3) how well each slip matches each card
weights = torch.softmax(scores, dim=-1)  # ko: (2, 3) 읽을 시간, 행마다 합이 1 # en: (2, 3) reading time, each row sums to 1
output = weights @ V  # ko: (2, 2) 섞은 내용 # en: (2, 2) the blended contents
print("weights:\n", weights.numpy().round(3))
print("output:\n", output.numpy().round(3))

out_pkg, w_pkg = scaled_dot_product_attention(Q, K, V)
hand_w = torch.tensor([by_hand[n]["weights"] for n in slips], dtype=torch.float64)
hand_out = torch.tensor([by_hand[n]["output"] for n in slips], dtype=torch.float64)
print("package vs matrices:", torch.allclose(out_pkg, output), torch.allclose(w_pkg, weights))
print("largest difference, hand vs package:",
      f"{max((w_pkg - hand_w).abs().max().item(), (out_pkg - hand_out).abs().max().item()):.1e}")

# %% [markdown] lang="ko"
# ## 쪽지를 돌려 보기
#
# 이번에는 쪽지 2와 길이가 같은 쪽지를 주제 1 방향(0°)에서 주제 2 방향(90°)까지 조금씩 돌립니다. 쪽지
# 25장을 행으로 쌓아 패키지 함수를 한 번만 부릅니다. 왼쪽 그림은 책마다 받는 가중치, 오른쪽 그림은
# 출력이 평면 위에서 움직이는 길입니다. 점선 삼각형의 꼭짓점이 책 세 권의 내용입니다.

# %% [markdown] lang="en"
# ## Turning the slip
#
# Now take a slip as long as slip 2 and turn it from the topic-1 direction (0°) to the topic-2
# direction (90°). The 25 slips are stacked as rows, so the package's function is called once.
# The left panel shows the weight each book gets; the right one shows the path of the output in
# the plane. The corners of the dotted triangle are the three books' contents.

# %%
angles = torch.linspace(0, 90, 25, dtype=torch.float64)
radius = Q[1].norm()  # ko: 쪽지 2의 길이 √2 # en: the length of slip 2, √2
slips_turned = radius * torch.stack([torch.cos(angles.deg2rad()), torch.sin(angles.deg2rad())], dim=-1)  # (25, d_k)
out_t, w_t = scaled_dot_product_attention(slips_turned, K, V)  # (25, 2), (25, 3)
for i in (0, 6, 12, 18, 24):
    print(f"{angles[i].item():4.1f}°  weights {w_t[i].numpy().round(3)}  output {out_t[i].numpy().round(2)}")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.5, 3.4))
for b in range(3):
    ax1.plot(angles, w_t[:, b], label=f"책 {b + 1}")  # ko
    ax1.plot(angles, w_t[:, b], label=f"book {b + 1}")  # en
ax1.set_xlabel("쪽지의 각도 (0 = 주제 1, 90 = 주제 2)")  # ko
ax1.set_xlabel("slip angle in degrees (0 = topic 1, 90 = topic 2)")  # en
ax1.set_ylabel("가중치")  # ko
ax1.set_ylabel("weight")  # en
ax1.set_title("쪽지를 돌리면 읽을 시간이 옮겨 간다")  # ko
ax1.set_title("Turning the slip moves the reading time")  # en
ax1.set_ylim(0, 0.7)
ax1.legend(loc="upper center", ncol=3)
corners = torch.cat([V, V[:1]])
ax2.plot(corners[:, 0], corners[:, 1], "k:", lw=1)
ax2.plot(V[:, 0], V[:, 1], "ko")
for b in range(3):
    ax2.annotate(f"v{b + 1}", V[b].tolist(), textcoords="offset points", xytext=(4, 4))
ax2.plot(out_t[:, 0], out_t[:, 1], ".-", color="tab:red")
ax2.set_xlim(-1, 12)
ax2.set_ylim(-1, 12)
ax2.set_aspect("equal")
ax2.set_xlabel("주제 1")  # ko
ax2.set_xlabel("topic 1")  # en
ax2.set_ylabel("주제 2")  # ko
ax2.set_ylabel("topic 2")  # en
ax2.set_title("출력은 늘 책 내용을 섞은 것")  # ko
ax2.set_title("The output is always a blend")  # en
plt.tight_layout()
plt.show()

# %% [markdown] lang="ko"
# 가중치는 쪽지가 가리키는 쪽으로 부드럽게 옮겨 갑니다. 한 권에서 다른 권으로 뚝 끊겨 넘어가지 않습니다.
# 출력은 언제나 삼각형 안에 있습니다. 가중치가 양수이고 합이 1이라서, 출력은 책 내용의 가중 평균일 수밖에
# 없기 때문입니다. 어텐션은 책을 고르지 않고 섞습니다.
#
# 방향은 그대로 두고 쪽지의 **길이**만 바꾸면 어떻게 될까요? 강의의 "이 강의의 한계"에서 말한
# 것처럼, 점수는 길이에도 좌우됩니다.

# %% [markdown] lang="en"
# The weights shift smoothly towards where the slip points; they never jump from one book to
# another. The output always stays inside the triangle: the weights are positive and sum to 1, so
# the output can only be a weighted average of the contents. Attention does not pick a book; it
# blends them.
#
# What if we keep the direction and change only the slip's **length**? As the lesson's "Limits of this
# lesson" says, scores care about length too.

# %%
for scale in (0.5, 1.0, 2.0, 4.0):
    _, w = scaled_dot_product_attention(scale * Q[1:], K, V)
    print(f"{scale:3.1f} × q2  weights {w[0].numpy().round(3)}")

# %% [markdown] lang="ko"
# 쪽지가 길수록 가장 잘 맞는 책 3에 시간이 몰립니다. 쪽지 1이 쪽지 2보다 단호하게 읽었던 이유도 이것입니다.
#
# ## 가중치를 정확히 0으로: 마스크
#
# 가중치가 작아도 0은 아닙니다. 쪽지 1에서도 책 2는 조금 읽혔습니다. 어떤 책을 아예 빼려면 마스크를
# 씁니다. 패키지에서는 `True`가 "볼 수 있다"입니다. 책 2를 가리고 다시 계산합니다. 마스크가 불리언이
# 아니면 `check_mask`가 무엇이 잘못됐는지 알려 줍니다.

# %% [markdown] lang="en"
# The longer the slip, the more the time piles onto book 3, the best match. It is also why slip 1
# read more decisively than slip 2.
#
# ## Exactly zero: a mask
#
# A small weight is still not zero: even with slip 1, book 2 got a little time. To leave a book out
# altogether, use a mask. In the package `True` means "may attend". Hide book 2 and compute again;
# and if a mask is not boolean, `check_mask` says what is wrong.

# %%
hide_book_2 = torch.tensor([[True, False, True]])  # ko: (1, 3), 모든 쪽지에 같은 마스크 # en: (1, 3), the same mask for every slip
out_m, w_m = scaled_dot_product_attention(Q, K, V, mask=hide_book_2)
print("weights, book 2 hidden:\n", w_m.numpy().round(3))
print("book 2 weight exactly 0:", bool((w_m[:, 1] == 0).all()), " rows sum to", w_m.sum(-1).tolist())
try:
    scaled_dot_product_attention(Q, K, V, mask=torch.tensor([[1.0, 0.0, 1.0]]))
except ValueError as err:
    print("ValueError:", err)

# %% [markdown] lang="ko"
# ## 해 보기
#
# - **3강 과제의 출발점.** 위의 `attention_by_hand` 셀에서 `/ math.sqrt(d_k)`를 지우고 다시 실행한 뒤,
#   `slips`와 `keys`의 모든 벡터에 10을 곱해(예: `keys = [[10 * x for x in k] for k in keys]`) 쪽지 2의
#   가중치를 보세요. 강의의 "√dₖ로 나누는 이유" 표와 비교하고, 무슨 일이 일어났는지 두 문장으로
#   설명해 보세요.
# - 쪽지를 `[0.0, 3.0]`처럼 직접 정해 보세요. 실행하기 전에 어느 책이 가장 많은 시간을 받을지, 출력이
#   삼각형의 어디쯤에 올지 먼저 예상해 보세요.
# - 책 3의 카드를 `[3.0, 3.0]`으로 길게 만들면 쪽지 1의 가중치는 어떻게 바뀌나요? 책 3의 내용은 그대로인데
#   출력이 달라지는 이유는 무엇일까요?

# %% [markdown] lang="en"
# ## Try it
#
# - **Where the lesson 3 assignment starts.** In the `attention_by_hand` cell above, delete
#   `/ math.sqrt(d_k)` and run it again; then multiply every vector of `slips` and `keys` by 10
#   (for example `keys = [[10 * x for x in k] for k in keys]`) and look at slip 2's weights.
#   Compare with the table in the lesson's "Why divide by √dₖ", and explain in two sentences what
#   happened.
# - Write a slip of your own, such as `[0.0, 3.0]`. Before running, guess which book gets the most
#   time and where in the triangle the output will land.
# - Make book 3's card longer, `[3.0, 3.0]`. How do slip 1's weights change? Book 3's content is
#   the same, so why does the output change?
