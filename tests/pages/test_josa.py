"""Korean particles after generated numbers follow how the number is read."""

import pytest

from coursebuild.text.josa import last_syllable, with_particle


@pytest.mark.parametrize("text, which, expected", [
    ("5.657", "이", "5.657이"),          # 오 점 육오칠: 칠
    ("0.576", "으로", "0.576으로"),      # 육
    ("20", "으로", "20으로"),            # 이십
    ("1.0000", "을", "1.0000을"),        # 영
    ("22.63", "과", "22.63과"),          # 삼
    ("3", "은", "3은"),                  # 삼
    ("2", "이", "2가"), ("4", "을", "4를"), ("5", "은", "5는"), ("9", "과", "9와"),
    ("1", "으로", "1로"), ("7", "으로", "7로"), ("8", "으로", "8로"), ("1", "이", "1이"),
    ("8", "을", "8을"), ("6", "으로", "6으로"), ("0", "이", "0이"),
    ("100", "이", "100이"), ("1,000", "을", "1,000을"), ("10,000", "은", "10,000은"),
    ("1,050,624", "이", "1,050,624가"), ("16,777,216", "과", "16,777,216과"),
    ("120,000", "으로", "120,000으로"), ("300,000,000", "이", "300,000,000이"),
    ("2,000,000,000,000", "이", "2,000,000,000,000가"),  # 이조
    ("98.4%", "이", "98.4%가"), ("100%", "으로", "100%로"),  # 퍼센트
    ("n²", "을", "n²을"), ("4×", "이", "4×가"),            # 제곱, 배
    ("1.5e-04", "이", "1.5e-04가"),                         # … 사 승
    ("3개", "이", "3개가"), ("12.5", "이었", "12.5였"), ("12.3", "이었", "12.3이었"),
])
def test_particles_follow_the_reading(text, which, expected):
    assert with_particle(text, which) == expected


def test_unreadable_text_is_a_clear_error():
    with pytest.raises(ValueError, match="write the particle by hand"):
        last_syllable("abc")
    with pytest.raises(ValueError, match="unit 'MiB'"):
        last_syllable("12 MiB")
    with pytest.raises(ValueError, match="unknown particle"):
        with_particle("3", "에게")


def test_a_particle_follows_the_last_syllable_of_any_reading():
    from coursebuild.text.josa import particle_after_syllable

    # 제곱 (n²), 엘 (L, ㄹ: 로 but 을), 케이 (d_k), 무한대 (∞)
    assert [particle_after_syllable(s, w) for s, w in
            [("곱", "으로"), ("엘", "로"), ("엘", "를"), ("이", "은"), ("대", "이었")]] == ["으로", "로", "을", "는", "였"]
