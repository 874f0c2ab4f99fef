"""ClassifyResult: the columns of a classification, with conversions to the dataframe and
table libraries people use (each imported only when asked for; none is required)."""


class ClassifyResult(dict):
    """A dict of column name to numpy array, all of one length (the number of rows).

    Text columns (error, side_to_move, outcome, winner) are object arrays of str or None.
    """

    @property
    def num_rows(self) -> int:
        """The number of rows (len() of the dict is the number of columns)."""
        return len(self["valid"]) if "valid" in self else 0

    @property
    def columns(self) -> list:
        return list(self.keys())

    def to_pandas(self):
        """A pandas DataFrame of the columns (pandas must be installed)."""
        import pandas as pd

        return pd.DataFrame(dict(self))

    def to_arrow(self):
        """A pyarrow Table of the columns, text columns as strings with nulls (pyarrow must be
        installed)."""
        import pyarrow as pa

        arrays = {}
        for name, values in self.items():
            if values.dtype == object:
                arrays[name] = pa.array(values.tolist(), type=pa.string())
            else:
                arrays[name] = pa.array(values)
        return pa.table(arrays)

    def to_polars(self):
        """A polars DataFrame of the columns (polars must be installed)."""
        import polars as pl

        return pl.DataFrame({name: (values.tolist() if values.dtype == object else values) for name, values in self.items()})
