"""The lazy legal set of a choice made of parts (engine/core/choice.py): the same sequence a list would be.

Small parts are compared with what itertools lists (order included); large ones by ranks and membership."""

from __future__ import annotations

from itertools import combinations, product

from hypothesis import given, settings, strategies as st

from dungeon_twister.engine.core.choice import Chained, Mapped, Part, PartsChoice, is_lazy


def multiset_combinations(values, copies, count):
    """Every choice of `count` values (each at most its copies), lexicographic: by expanding the copies and
    dropping repeats, which itertools.combinations yields in order."""
    expanded = [v for v, n in zip(values, copies) for _ in range(n)]
    return list(dict.fromkeys(combinations(expanded, count)))


def choice_of(parts):
    return PartsChoice(tuple(parts), lambda chosen: chosen, lambda a: a if type(a) is tuple else None)


@settings(max_examples=60, derandomize=True, database=None, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.lists(st.integers(1, 3), min_size=1, max_size=5)),
                min_size=1, max_size=3))
def test_a_parts_choice_is_the_product_of_its_parts_combinations_in_order(shape):
    parts = []
    for i, (count, copies) in enumerate(shape):
        values = tuple(f"{chr(65 + i)}{j}" for j in range(len(copies)))
        parts.append(Part(f"p{i}", min(count, sum(copies)), values, tuple(copies)))
    expected = list(product(*(multiset_combinations(p.values, p.copies, p.count) for p in parts)))
    choice = choice_of(parts)
    assert len(choice) == len(expected)
    assert list(choice) == expected
    assert [choice[i] for i in range(len(choice))] == expected
    assert choice[-1] == expected[-1] and choice[1:3] == expected[1:3]
    assert all(e in choice for e in expected)


def test_membership_refuses_each_way_a_choice_can_be_wrong():
    part = Part("objects", 3, ("KY", "RP", "TS"), (2, 2, 1))
    choice = choice_of([part])
    assert (("KY", "KY", "TS"),) in choice and (("TS", "KY", "KY"),) in choice  # any order
    assert choice.problem((("KY", "KY", "KY"),)) == "KY may be chosen at most 2 times"
    assert choice.problem((("KY", "RP", "TS"), ("KY",))) == "not a choice of this kind"  # one part too many
    assert part.problem(["KY", "KY", "KY"]) == "KY may be chosen at most 2 times"
    assert part.problem(["TS", "TS", "KY"]) == "TS may be chosen only once"
    assert part.problem(["KY", "SW", "TS"]) == "SW is not one of the objects to choose from"
    assert part.problem(["KY", "TS"]) == "choose 3 objects, not 2"
    assert choice.problem("not a tuple") == "not a choice of this kind"
    assert len(choice) == 5  # KKR KKT KRR KRT RRT


def test_indexing_a_huge_choice_costs_no_listing_and_out_of_range_is_an_index_error():
    parts = [Part("characters", 8, tuple(f"C{i:02}" for i in range(21)), (1,) * 21),
             Part("objects", 6, tuple(f"O{i:02}" for i in range(15)), (2, 2) + (1,) * 13)]
    choice = choice_of(parts)
    assert len(choice) == 203_490 * 7_085
    assert choice[0] == (tuple(f"C{i:02}" for i in range(8)), ("O00", "O00", "O01", "O01", "O02", "O03"))
    assert choice[len(choice) - 1] == (tuple(f"C{i:02}" for i in range(13, 21)), tuple(f"O{i:02}" for i in range(9, 15)))
    for index in (-len(choice) - 1, len(choice)):
        try:
            choice[index]
        except IndexError:
            pass
        else:
            raise AssertionError(index)
    assert Part.from_form(parts[1].form()) == parts[1] and parts[1].form()["copies"] == {"O00": 2, "O01": 2}


def test_mapped_and_chained_are_lazy_views_of_the_same_order():
    a = choice_of([Part("p", 2, ("A", "B", "C"), (1, 1, 1))])
    texts = Mapped(a, lambda chosen: "+".join(chosen[0]))
    assert list(texts) == ["A+B", "A+C", "B+C"] and texts[2] == "B+C" and len(texts) == 3
    both = Chained([a, [], ["x"]])
    assert list(both) == [*a, "x"] and both[3] == "x" and both[-1] == "x" and "x" in both and len(both) == 4
    assert is_lazy(a) and is_lazy(texts) and is_lazy(both) and not is_lazy([1])
