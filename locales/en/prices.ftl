## Prices: /prices, the reseller price list

prices-brands = 📋 <b>Price list</b>
    { $products } products from { $brands } brands{ $unavailable ->
        [0] {""}
       *[other] {" "}({ $unavailable } unavailable right now)
    }. Pick a brand below.
    Search: just type what you need (for example <code>credit xl 10k</code>, <code>data tsel 5gb</code>, <code>token pln 50</code>), or <code>/prices ml 86</code>
prices-page = Page { $page }/{ $pages }
prices-empty = The provider's price list is empty. Try refreshing later.
prices-brand-title = 📋 <b>{ $brand }</b> — { $count } products, page { $page }/{ $pages }
prices-search-title = 🔎 Results for "{ $query }" — { $count } products, page { $page }/{ $pages }
prices-search-empty = 🔎 No product matches "{ $query }".
    Searched for: { $understood }
prices-search-examples = Try: { $examples }
prices-search-forms = Write a category (credit, data, token, game, voucher), an operator or brand (tsel, isat, xl, axis, tri, sf, byu, ml, ff) and an amount (<code>10</code>, <code>10k</code>, <code>10.000</code>) or a quota (<code>5gb</code>), or a product code. Or pick a brand.
prices-search-term-category = { $category ->
        [pulsa] credit
        [data] data package
        [pln] PLN token
        [game] game
        [voucher] voucher
       *[ewallet] e-wallet
    }
prices-search-term-number = { $number } ({ $nominal })
prices-search-term-word = "{ $word }"
prices-line-available = <code>{ $code }</code> { $name } — <b>{ $price }</b>
prices-line-sell = <code>{ $code }</code> { $name } — { $figures }
prices-line-unavailable = ⛔ <code>{ $code }</code> { $name } — unavailable ({ $status })
prices-footer = Tap a product to buy it. ⛔ = cannot be bought right now.

prices-button-brand = { $brand } ({ $count })
prices-button-product = { $code } · { $price }
prices-button-unavailable = ⛔ { $code } · { $status }
prices-button-search = 🔍 Search
prices-button-brands = « All brands

prices-refreshed = Price list refreshed.
prices-unavailable = { $name } is unavailable right now (status: { $status }). Pick another product or try again later.
prices-gone = This product is no longer in the price list. Tap 🔄 Refresh for the latest list.
prices-buying = { $name } — { $price }
prices-search-prompt = 🔍 Type the product, operator or code to look for (for example: credit xl 10k, data tsel 5gb, token pln 50, ml 86):
prices-search-placeholder = telkomsel 10

## A product's status as the provider wrote it (gangguan, kosong, nonaktif), in the reader's words
product-status-gangguan = out of service
product-status-kosong = out of stock
product-status-nonaktif = inactive
