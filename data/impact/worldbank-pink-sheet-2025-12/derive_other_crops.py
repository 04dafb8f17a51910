"""Annual means of the Pink Sheet series that price the crops a country grows besides the register's
(fixtures/impact/published/materials.json, other_output.agriculture), from the shipped workbook
raw/CMO-Historical-Data-Monthly.xlsx: the arithmetic mean of the 12 monthly prices of each year, the
rule of pink_sheet_annual_prices_tidy.csv (this script gives that file's COCOA 2019, 2.3408, and SUGAR_WLD 2019, 0.28, as a check when they are
added to SERIES).

    python3 data/impact/worldbank-pink-sheet-2025-12/derive_other_crops.py > \
        data/impact/worldbank-pink-sheet-2025-12/pink_sheet_annual_prices_other_crops.csv

Python's standard library only (an .xlsx is a zip of XML); run once, its output is shipped.
"""
import csv, re, sys, zipfile
import xml.etree.ElementTree as ET
from pathlib import Path

NS = '{http://schemas.openxmlformats.org/spreadsheetml/2006/main}'
BOOK = Path(__file__).parent / 'raw' / 'CMO-Historical-Data-Monthly.xlsx'
SERIES = ['WHEAT_US_HRW', 'RICE_05', 'BARLEY', 'MAIZE', 'SORGHUM', 'BANANA_US', 'ORANGE', 'TEA_AVG', 'TOBAC_US']
YEARS = (2019,)  # the latest year of the FAOSTAT file the prices multiply
PER_KG = {'($/mt)': 1 / 1000, '($/kg)': 1}


def sheet(z, shared, name):
    rows = {}
    for row in ET.fromstring(z.read(f'xl/worksheets/{name}.xml')).iter(NS + 'row'):
        for c in row.findall(NS + 'c'):
            col = re.match(r'[A-Z]+', c.get('r')).group()
            v = c.find(NS + 'v')
            if v is None:
                continue
            rows.setdefault(int(c.get('r')[len(col):]), {})[col] = shared[int(v.text)] if c.get('t') == 's' else v.text
    return rows


def main():
    z = zipfile.ZipFile(BOOK)
    shared = [''.join(t.text or '' for t in si.iter(NS + 't')) for si in ET.fromstring(z.read('xl/sharedStrings.xml'))]
    prices = sheet(z, shared, 'sheet2')  # "Monthly Prices": names row 5, units row 6, codes row 7
    column = {code: col for col, code in prices[7].items()}
    out = csv.writer(sys.stdout, lineterminator='\n')
    out.writerow(['material', 'wb_series', 'wb_code', 'unit_published', 'year', 'months', 'annual_mean', 'usd_per_kg', 'conversion', 'partial_year', 'note'])
    for code in SERIES:
        col = column[code]
        unit = prices[6][col]
        for year in YEARS:
            cells = [r.get(col) for r in prices.values() if r.get('A', '').startswith(f'{year}M')]
            months = [float(v) for v in cells if v is not None and re.fullmatch(r'-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?', v)]
            if len(months) != 12:
                raise SystemExit(f'{code} {year}: {len(months)} monthly prices, not 12')
            mean = sum(months) / len(months)
            out.writerow(['(other crops)', prices[5][col].strip(), code, unit.strip('()'), year, len(months), round(mean, 4),
                          round(round(mean, 4) * PER_KG[unit], 7), 'USD/kg = value ($/mt) / 1000' if unit == '($/mt)' else 'USD/kg = value ($/kg)',
                          0, 'arithmetic mean of the monthly prices of the year'])


main()
