## Prices: /prices, the reseller price list

prices-brands = 📋 <b>Price list</b>
    { $products } products from { $brands } brands{ $unavailable ->
        [0] {""}
       *[other] {" "}({ $unavailable } unavailable right now)
    }. Pick a brand below.
    Search: just type the product (for example <code>telkomsel 10</code>), or <code>/prices ml 86</code>
prices-page = Page { $page }/{ $pages }
prices-empty = The provider's price list is empty. Try refreshing later.
prices-brand-title = 📋 <b>{ $brand }</b> — { $count } products, page { $page }/{ $pages }
prices-search-title = 🔎 Results for "{ $query }" — { $count } products, page { $page }/{ $pages }
prices-search-empty = 🔎 No product matches "{ $query }". Try other words (an operator name or a product code), or pick a brand.
prices-line-available = <code>{ $code }</code> { $name } — <b>{ $price }</b>
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
prices-search-prompt = 🔍 Type the product, operator or code to look for (for example: telkomsel 10, ml 86):
prices-search-placeholder = telkomsel 10
